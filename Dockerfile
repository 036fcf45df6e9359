# One image recipe for the services and the simulator, from the jars `mvn package` made:
#   mvn -B -DskipTests package
#   docker build --build-arg MODULO=receptor -t pedidos/receptor:local .
# (compose does both builds for you: `docker compose up --build` after the `mvn package`). Built
# from the jars rather than from source so the image build needs no Maven, no network but Debian's
# packages, and no BuildKit: it is one stage with plain instructions, and builds the same with the
# classic builder (docker-compose 1.x, DOCKER_BUILDKIT=0) and with BuildKit/buildx.
FROM debian:bookworm-slim

# Debian's JRE (17, the project's Java) and curl for the healthcheck. The man directory is made
# first: the official slim image excludes /usr/share/man, and the JRE's postinst links into it.
# Before the ARGs below, so this layer is shared by every module's image and cached.
RUN mkdir -p /usr/share/man/man1 \
 && apt-get update \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends \
      openjdk-17-jre-headless curl ca-certificates \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home --shell /usr/sbin/nologin servico

# The folder the module is in: produto (the services) or ferramentas (the simulator)
ARG GRUPO=produto
ARG MODULO
# The simulator's runnable jar carries a classifier: -exec
ARG SUFIXO=""
ARG VERSAO=0.1.0-SNAPSHOT
# The JVM options, the same files the local run reads: the services' shared ones
# (produto/opcoes-da-jvm), then the module's own (the JIT differs between services).
COPY produto/opcoes-da-jvm /app/opcoes-da-jvm
COPY ${GRUPO}/${MODULO}/opcoes-da-jvm /app/opcoes-do-modulo
COPY ${GRUPO}/${MODULO}/target/${MODULO}-${VERSAO}${SUFIXO}.jar /tmp/app.jar
# The jar extracted (the application jar with its libraries beside it, in /app/lib): the fat
# jar's nested jars are read through Spring Boot's own class loader, and a service started from
# the extracted jar took a quarter less CPU to start (docs/ARRANQUE.md). `java -jar /app/app.jar`
# runs it as before. No class archive: on JDK 17 it saved 7 % of the start's CPU, needed a
# training run at build (which can run without a database, docs/ARRANQUE.md), and a JVM started
# with it and a flight recording crashed.
RUN java -Djarmode=tools -jar /tmp/app.jar extract --destination /app/x \
 && mv /app/x/lib /app/lib && mv /app/x/*.jar /app/app.jar && rm -rf /app/x /tmp/app.jar
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
ENTRYPOINT ["java", "@/app/opcoes-da-jvm", "@/app/opcoes-do-modulo", "-XX:MaxRAMPercentage=75", "-jar", "/app/app.jar"]
