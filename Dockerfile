# One image recipe for the services and the simulator, from the jars `mvn package` made:
#   mvn -B -DskipTests package
#   docker build --build-arg MODULO=receptor -t pedidos/receptor:local .
# (compose does both builds for you: `docker compose up --build` after the `mvn package`). Built
# from the jars rather than from source so the image build needs no Maven, no network but Debian's
# packages, and no BuildKit: it is one stage with plain instructions, and builds the same with the
# classic builder (docker-compose 1.x, DOCKER_BUILDKIT=0) and with BuildKit/buildx.
FROM debian:trixie-slim

# Debian's JRE 25 and curl for the healthcheck. The services are built for Java 17 (the floor
# they run on, locally and in the tests); the image runs them on 25 for its AOT cache (below).
# The man directory is made first: the slim image excludes /usr/share/man, and the JRE's postinst
# links into it. Before the ARGs below, so this layer is shared by every module's image and cached.
RUN mkdir -p /usr/share/man/man1 \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      openjdk-25-jre-headless curl ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin servico

# The folder the module is in: . (the services, at the root) or ferramentas (the simulator)
ARG GRUPO=.
ARG MODULO
# The simulator's runnable jar carries a classifier: -exec
ARG SUFIXO=""
# A service (a Spring Boot application), sim: extracted, with an AOT cache (below). The
# simulator, a plain runnable jar without Spring, is nao: copied as it is.
ARG SERVICO=sim
ARG VERSAO=0.1.0-SNAPSHOT
# The JVM options, the same files the local run reads: the services' shared ones
# (opcoes-comuns-da-jvm), then the module's own (the JIT differs between services).
COPY opcoes-comuns-da-jvm /app/opcoes-da-jvm
COPY ${GRUPO}/${MODULO}/opcoes-da-jvm /app/opcoes-do-modulo
COPY ${GRUPO}/${MODULO}/target/${MODULO}-${VERSAO}${SUFIXO}.jar /tmp/app.jar
# The jar extracted (the application jar with its libraries beside it, in /app/lib): the fat
# jar's nested jars are read through Spring Boot's own class loader, and a service started from
# the extracted jar took a quarter less CPU to start (docs/ARRANQUE.md). `java -jar /app/app.jar`
# runs it as before.
RUN case "$SERVICO" in \
      sim|nao) ;; \
      *) echo "SERVICO is sim or nao, not '$SERVICO'" >&2; exit 1 ;; \
    esac \
 && if [ "$SERVICO" = sim ]; then \
      java -Djarmode=tools -jar /tmp/app.jar extract --destination /app/x \
      && mv /app/x/lib /app/lib && mv /app/x/*.jar /app/app.jar && rm -rf /app/x /tmp/app.jar; \
    else \
      mv /tmp/app.jar /app/app.jar; \
    fi
# The AOT cache (JEP 483/514/515): the classes a start loads and links, and their profiles, from a
# training run here, mapped by every start of the container: the receptor's start takes half the
# time, the relay's and the aplicador's 30-47 % less (docs/ARRANQUE.md). The training
# run starts the service up to the refresh of its context (every bean made, nothing started: no
# database, broker or port needed) with the JVM options the container runs with. The settings it
# needs are throw-away values given on this line only, never as ENV, so they cannot reach a running
# container; its management port and address are the ENV's below (the relay refuses an address
# without a port). The JVM checks the cache against the jars and options it is started with and
# runs without it if they differ; among them compressed object pointers, which a heap of 32 GB or
# more turns off, so the training run sizes its heap for the compose file's memory limit (MaxRAM),
# not for the build machine's RAM. /app/opcoes-do-cache holds the option that maps it, or nothing.
RUN if [ "$SERVICO" = sim ]; then \
      env LOJA_WEBHOOK_SECRET=treino-da-imagem-nao-e-um-segredo \
          PEDIDOS_KAFKA_ASSINATURA=treino-da-imagem-nao-e-uma-chave \
          PEDIDOS_OPS_USUARIO=treino PEDIDOS_OPS_SENHA=treino-da-imagem-nao-e-senha \
          MANAGEMENT_SERVER_PORT=9000 MANAGEMENT_SERVER_ADDRESS=127.0.0.1 \
        java @/app/opcoes-da-jvm @/app/opcoes-do-modulo -XX:MaxRAMPercentage=75 -XX:MaxRAM=768m \
          -XX:AOTCacheOutput=/app/app.aot -Xlog:aot=error,cds=error \
          -Dspring.context.exit=onRefresh -jar /app/app.jar --spring.flyway.enabled=false \
          > /tmp/treino.log 2>&1 \
      || { cat /tmp/treino.log; exit 1; }; \
      rm -rf /tmp/treino.log /tmp/tomcat* /tmp/hsperfdata_*; \
      test -s /app/app.aot || { echo "the training run made no AOT cache" >&2; exit 1; }; \
      echo "-XX:AOTCache=/app/app.aot" > /app/opcoes-do-cache; \
    else \
      echo "# no AOT cache" > /app/opcoes-do-cache; \
    fi
USER 10001
# The actuator stays on 127.0.0.1, where the HEALTHCHECK below asks it. To let Prometheus scrape
# it from another container, set MANAGEMENT_SERVER_ADDRESS=0.0.0.0; every endpoint but the health
# status then still needs the operators' login (PEDIDOS_OPS_USUARIO / PEDIDOS_OPS_SENHA).
# UTF-8 for the JVM's output and file names (the slim base has no locale set; C.UTF-8 is built in).
ENV LANG=C.UTF-8 \
    MANAGEMENT_SERVER_PORT=9000 \
    MANAGEMENT_SERVER_ADDRESS=127.0.0.1 \
    SERVER_PORT=8080
EXPOSE 8080 9000
# A service starts in 60-90 s on a 2-core host when all of them start at once: failures in the
# first 180 s do not count, and the first success marks it healthy whenever it comes.
HEALTHCHECK --interval=10s --timeout=5s --start-period=180s --retries=3 \
  CMD curl -fsS "http://127.0.0.1:${MANAGEMENT_SERVER_PORT}/actuator/health" || exit 1
ENTRYPOINT ["java", "@/app/opcoes-da-jvm", "@/app/opcoes-do-modulo", "@/app/opcoes-do-cache", "-XX:MaxRAMPercentage=75", "-jar", "/app/app.jar"]
