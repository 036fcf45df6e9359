# One image recipe for the three services: docker build --build-arg MODULO=receptor .
# The build stage compiles from source, so a clone with Docker needs nothing else.
FROM maven:3.9-eclipse-temurin-17 AS construcao
ARG MODULO
# The simulator's runnable jar carries a classifier: -exec
ARG SUFIXO=""
WORKDIR /src
COPY . .
RUN --mount=type=cache,target=/root/.m2 \
    mvn -B -q -DskipTests -Dspotless.check.skip=true -pl "${MODULO}" -am package \
 && cp "${MODULO}/target/${MODULO}-0.1.0-SNAPSHOT${SUFIXO}.jar" /app.jar

FROM eclipse-temurin:17-jre
RUN apt-get update \
 && apt-get install -y --no-install-recommends curl \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --system --uid 10001 --no-create-home servico
COPY --from=construcao /app.jar /app/app.jar
USER 10001
# The actuator stays on 127.0.0.1, where the HEALTHCHECK below asks it. To let Prometheus scrape
# it from another container, set MANAGEMENT_SERVER_ADDRESS=0.0.0.0; every endpoint but the health
# status then still needs the operators' login (PEDIDOS_OPS_USUARIO / PEDIDOS_OPS_SENHA).
ENV MANAGEMENT_SERVER_PORT=9000 \
    MANAGEMENT_SERVER_ADDRESS=127.0.0.1 \
    SERVER_PORT=8080
EXPOSE 8080 9000
HEALTHCHECK --interval=10s --timeout=3s --start-period=60s --retries=3 \
  CMD curl -fsS "http://127.0.0.1:${MANAGEMENT_SERVER_PORT}/actuator/health" || exit 1
ENTRYPOINT ["java", "-XX:MaxRAMPercentage=75", "-jar", "/app/app.jar"]
