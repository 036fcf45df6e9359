package pedidos.infra;

import static java.util.concurrent.TimeUnit.MILLISECONDS;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ScramCredentialInfo;
import org.apache.kafka.clients.admin.ScramMechanism;
import org.apache.kafka.clients.admin.UserScramCredentialAlteration;
import org.apache.kafka.clients.admin.UserScramCredentialUpsertion;
import org.apache.kafka.common.acl.AclBinding;
import org.apache.kafka.common.acl.AclBindingFilter;
import org.apache.kafka.common.errors.SaslAuthenticationException;
import org.apache.kafka.common.test.KafkaClusterTestKit;
import org.apache.kafka.common.test.TestKitNodes;
import org.apache.kafka.metadata.authorizer.StandardAuthorizer;
import org.apache.kafka.metadata.bootstrap.BootstrapMetadata;
import org.apache.kafka.server.common.Feature;
import org.apache.kafka.server.common.MetadataVersion;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A real single-node KRaft broker (combined broker and controller) running inside this JVM.
 *
 * <p>With {@link Builder#autenticacao(boolean)}, it runs as deployed (docs/kafka.md, "Kafka
 * security"): clients authenticate with SASL/SCRAM-SHA-512 as one of {@link UsuarioDoKafka}, and
 * the standard authorizer grants each only {@link AclsDoKafka}; a client without credentials is
 * refused. The broker's own connections (to its controller, to itself) use SASL/PLAIN as an
 * administrator whose password is drawn at start and never leaves this object: SCRAM credentials
 * live in the metadata log, which the controller listener cannot wait for, and someone must create
 * the SCRAM users.
 *
 * <p>Built on Kafka's own {@link KafkaClusterTestKit} rather than spring-kafka-test's wrapper: the
 * wrapper ignores fixed ports and writes {@code spring.kafka.bootstrap-servers} into system
 * properties, which would leak into every Spring context of the JVM.
 */
public final class KafkaLocal implements AutoCloseable {

  /** Environment variable the local launcher reads the port from. */
  public static final String VARIAVEL_DA_PORTA = "LOCAL_KAFKA_PORT";

  private static final Logger log = LoggerFactory.getLogger(KafkaLocal.class);
  // The test kit pre-binds its own listeners to random ports and ignores the port written in
  // "listeners" for them; a listener of another name is bound as configured.
  private static final String OUVINTE_FIXO = "LOCAL";
  // With TLS: a third client listener, SASL over TLS, beside the plain SASL ones.
  private static final String OUVINTE_TLS = "SEGURO";

  private static final String SUPER_USUARIO_INTERNO = "pedidos-broker";

  private final KafkaClusterTestKit cluster;
  private final DiretorioTemporario diretorio;
  private final String bootstrapServers;
  private final boolean autenticacao;
  private final int portaTls;
  private final CertificadoLocal certificado;
  private boolean fechado;

  private KafkaLocal(
      KafkaClusterTestKit cluster,
      DiretorioTemporario diretorio,
      int portaFixa,
      boolean autenticacao,
      int portaTls,
      CertificadoLocal certificado) {
    this.cluster = cluster;
    this.diretorio = diretorio;
    this.bootstrapServers = portaFixa == 0 ? cluster.bootstrapServers() : "localhost:" + portaFixa;
    this.autenticacao = autenticacao;
    this.portaTls = portaTls;
    this.certificado = certificado;
  }

  public static Builder builder() {
    return new Builder();
  }

  /** A broker on a random port. */
  public static KafkaLocal iniciar() {
    return builder().iniciar();
  }

  public String bootstrapServers() {
    return bootstrapServers;
  }

  /** Whether clients must authenticate (SASL/SCRAM) and ACLs apply. */
  public boolean autenticacao() {
    return autenticacao;
  }

  /**
   * Everything a plain Kafka client needs to reach this broker as the user: {@code
   * bootstrap.servers}, and the SASL settings when the broker wants them.
   */
  public Map<String, Object> cliente(UsuarioDoKafka usuario) {
    Map<String, Object> propriedades = new HashMap<>();
    propriedades.put("bootstrap.servers", bootstrapServers);
    if (autenticacao) {
      propriedades.putAll(usuario.propriedadesDoCliente());
    }
    return propriedades;
  }

  /**
   * The listener that speaks SASL over TLS ({@code SASL_SSL}), with a certificate for {@code
   * localhost} that only {@link #certificado()}'s trust store trusts; empty unless built with
   * {@link Builder#tls(boolean)}.
   */
  public java.util.Optional<String> bootstrapServersTls() {
    return certificado == null
        ? java.util.Optional.empty()
        : java.util.Optional.of("localhost:" + portaTls);
  }

  /** The TLS listener's key store and the trust store its clients need. */
  public CertificadoLocal certificado() {
    if (certificado == null) {
      throw new IllegalStateException("this broker was started without TLS");
    }
    return certificado;
  }

  /**
   * What a plain Kafka client needs to reach the TLS listener as the user: {@code SASL_SSL}, the
   * SCRAM settings and the trust store.
   */
  public Map<String, Object> clienteTls(UsuarioDoKafka usuario) {
    CertificadoLocal tls = certificado();
    Map<String, Object> propriedades = new HashMap<>(usuario.propriedadesDoCliente());
    propriedades.put("bootstrap.servers", "localhost:" + portaTls);
    propriedades.put("security.protocol", "SASL_SSL");
    propriedades.put("ssl.truststore.location", tls.armazemDeConfianca().toString());
    propriedades.put("ssl.truststore.password", tls.senha());
    propriedades.put("ssl.truststore.type", CertificadoLocal.TIPO);
    return propriedades;
  }

  public int porta() {
    return Integer.parseInt(bootstrapServers.substring(bootstrapServers.lastIndexOf(':') + 1));
  }

  @Override
  public synchronized void close() {
    if (fechado) {
      return;
    }
    fechado = true;
    try {
      cluster.close();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      log.warn("Interrupted while stopping Kafka on {}", bootstrapServers);
    } catch (Exception e) {
      // The test kit rethrows any fault it recorded while running; the broker is down anyway.
      log.warn("Kafka on {} reported an error while stopping", bootstrapServers, e);
    } finally {
      diretorio.close();
    }
  }

  /** Options of the broker. */
  public static final class Builder {
    private int porta;
    private boolean autenticacao;
    private boolean tls;
    private Duration esperaDeInicio = Duration.ofSeconds(60);
    private final Map<String, String> propriedades = new LinkedHashMap<>();

    private Builder() {
      // Single node: internal topics cannot have more replicas than brokers.
      propriedades.put("offsets.topic.replication.factor", "1");
      propriedades.put("offsets.topic.num.partitions", "1");
      propriedades.put("transaction.state.log.replication.factor", "1");
      propriedades.put("transaction.state.log.min.isr", "1");
      propriedades.put("transaction.state.log.num.partitions", "1");
      propriedades.put("share.coordinator.state.topic.replication.factor", "1");
      propriedades.put("share.coordinator.state.topic.min.isr", "1");
      // The default 3 s delay only helps groups of many members joining at once.
      propriedades.put("group.initial.rebalance.delay.ms", "0");
      propriedades.put("unstable.api.versions.enable", "false");
      propriedades.put("unstable.feature.versions.enable", "false");
    }

    /** 0 (the default) lets the broker pick a free port. */
    public Builder porta(int porta) {
      this.porta = Portas.validar(porta);
      return this;
    }

    public Builder esperaDeInicio(Duration espera) {
      this.esperaDeInicio = Objects.requireNonNull(espera);
      return this;
    }

    /**
     * SASL/SCRAM for clients, one user per service and the ACLs of a deployment ({@link
     * AclsDoKafka}); off by default.
     */
    public Builder autenticacao(boolean autenticacao) {
      this.autenticacao = autenticacao;
      return this;
    }

    /**
     * One more client listener, SASL/SCRAM over TLS with a self-signed certificate issued at start
     * ({@link KafkaLocal#bootstrapServersTls()}); needs {@link #autenticacao(boolean)}. Off by
     * default: tests turn it on to show that the services' standard TLS settings work.
     */
    public Builder tls(boolean tls) {
      this.tls = tls;
      return this;
    }

    /** Any broker setting, e.g. {@code num.partitions}. */
    public Builder propriedade(String nome, String valor) {
      propriedades.put(nome, valor);
      return this;
    }

    public KafkaLocal iniciar() {
      if (porta != 0) {
        Portas.garantirLivre(porta, VARIAVEL_DA_PORTA);
      }
      if (tls && !autenticacao) {
        throw new IllegalStateException("a TLS listener is offered only with authentication on");
      }
      long inicio = System.nanoTime();
      DiretorioTemporario diretorio = DiretorioTemporario.criar("kafka-", abandonado -> {});
      KafkaClusterTestKit cluster = null;
      try {
        String senhaInterna = autenticacao ? UUID.randomUUID().toString() : null;
        CertificadoLocal certificado =
            tls ? CertificadoLocal.emitir(diretorio.caminho().resolve("tls")) : null;
        int portaTls = tls ? Portas.livre() : 0;
        cluster = construir(diretorio, senhaInterna, certificado, portaTls);
        iniciarComLimite(cluster);
        KafkaLocal kafka =
            new KafkaLocal(cluster, diretorio, porta, autenticacao, portaTls, certificado);
        if (autenticacao) {
          criarUsuariosEAcls(kafka, cluster.bootstrapServers(), senhaInterna);
        }
        log.info(
            "Kafka ready on {} in {} ms",
            kafka.bootstrapServers(),
            Duration.ofNanos(System.nanoTime() - inicio).toMillis());
        return kafka;
      } catch (Exception e) {
        fecharEmSilencio(cluster);
        diretorio.close();
        if (e instanceof InterruptedException) {
          Thread.currentThread().interrupt();
        }
        throw new IllegalStateException(
            "Kafka did not start" + (porta == 0 ? "" : " on port " + porta), e);
      }
    }

    private KafkaClusterTestKit construir(
        DiretorioTemporario diretorio,
        String senhaInterna,
        CertificadoLocal certificado,
        int portaTls)
        throws Exception {
      TestKitNodes nos =
          new TestKitNodes.Builder(versaoDeProducao())
              .setCombined(true)
              .setNumBrokerNodes(1)
              .setNumControllerNodes(1)
              .setBaseDirectory(diretorio.caminho().resolve("dados"))
              .build();
      KafkaClusterTestKit.Builder builder = new KafkaClusterTestKit.Builder(nos);
      propriedades.forEach(builder::setConfigProp);
      String interno = nos.brokerListenerName().value();
      String controlador = nos.controllerListenerName().value();
      List<String> ouvintes = new ArrayList<>(List.of(interno, controlador));
      List<String> enderecos =
          new ArrayList<>(List.of(interno + "://localhost:0", controlador + "://localhost:0"));
      if (porta != 0) {
        ouvintes.add(OUVINTE_FIXO);
        enderecos.add(OUVINTE_FIXO + "://localhost:" + porta);
      }
      if (certificado != null) {
        ouvintes.add(OUVINTE_TLS);
        enderecos.add(OUVINTE_TLS + "://localhost:" + portaTls);
      }
      if (enderecos.size() > 2) {
        builder.setConfigProp("listeners", String.join(",", enderecos));
      }
      String protocolo = senhaInterna == null ? "PLAINTEXT" : "SASL_PLAINTEXT";
      builder.setConfigProp(
          "listener.security.protocol.map",
          String.join(
              ",",
              ouvintes.stream()
                  .map(o -> o + ":" + (o.equals(OUVINTE_TLS) ? "SASL_SSL" : protocolo))
                  .toList()));
      if (senhaInterna != null) {
        configurarSasl(builder, ouvintes, controlador, senhaInterna);
      }
      if (certificado != null) {
        String prefixo = "listener.name." + OUVINTE_TLS.toLowerCase(Locale.ROOT) + ".";
        builder.setConfigProp(
            prefixo + "ssl.keystore.location", certificado.armazemDeChaves().toString());
        builder.setConfigProp(prefixo + "ssl.keystore.password", certificado.senha());
        builder.setConfigProp(prefixo + "ssl.key.password", certificado.senha());
        builder.setConfigProp(prefixo + "ssl.keystore.type", CertificadoLocal.TIPO);
      }
      return builder.build();
    }

    /**
     * SCRAM for clients and PLAIN for the broker's own connections on every listener; the
     * controller listener takes only PLAIN. The standard authorizer denies whatever no ACL allows.
     */
    private static void configurarSasl(
        KafkaClusterTestKit.Builder builder,
        List<String> ouvintes,
        String controlador,
        String senhaInterna) {
      String plain =
          "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
              + SUPER_USUARIO_INTERNO
              + "\" password=\""
              + senhaInterna
              + "\" user_"
              + SUPER_USUARIO_INTERNO
              + "=\""
              + senhaInterna
              + "\";";
      builder.setConfigProp("sasl.enabled.mechanisms", UsuarioDoKafka.MECANISMO + ",PLAIN");
      builder.setConfigProp("sasl.mechanism.inter.broker.protocol", "PLAIN");
      builder.setConfigProp("sasl.mechanism.controller.protocol", "PLAIN");
      for (String ouvinte : ouvintes) {
        String prefixo = "listener.name." + ouvinte.toLowerCase(Locale.ROOT) + ".";
        builder.setConfigProp(prefixo + "plain.sasl.jaas.config", plain);
        builder.setConfigProp(
            prefixo + "scram-sha-512.sasl.jaas.config",
            "org.apache.kafka.common.security.scram.ScramLoginModule required;");
      }
      builder.setConfigProp(
          "listener.name." + controlador.toLowerCase(Locale.ROOT) + ".sasl.enabled.mechanisms",
          "PLAIN");
      builder.setConfigProp("authorizer.class.name", StandardAuthorizer.class.getName());
      builder.setConfigProp(
          "super.users",
          "User:" + SUPER_USUARIO_INTERNO + ";User:" + UsuarioDoKafka.ADMINISTRADOR.nome());
      builder.setConfigProp("allow.everyone.if.no.acl.found", "false");
    }

    /**
     * Creates every {@link UsuarioDoKafka} and {@link AclsDoKafka}, as the broker's administrator,
     * and returns once the broker applies them: credentials and ACLs reach it through the metadata
     * log, a moment after the controller accepted them.
     */
    private void criarUsuariosEAcls(KafkaLocal kafka, String interno, String senhaInterna)
        throws Exception {
      Map<String, Object> configuracao = new HashMap<>();
      configuracao.put("bootstrap.servers", interno);
      configuracao.put("security.protocol", "SASL_PLAINTEXT");
      configuracao.put("sasl.mechanism", "PLAIN");
      configuracao.put(
          "sasl.jaas.config",
          "org.apache.kafka.common.security.plain.PlainLoginModule required username=\""
              + SUPER_USUARIO_INTERNO
              + "\" password=\""
              + senhaInterna
              + "\";");
      long prazo = System.nanoTime() + esperaDeInicio.toNanos();
      try (Admin admin = Admin.create(configuracao)) {
        List<UserScramCredentialAlteration> usuarios = new ArrayList<>();
        for (UsuarioDoKafka usuario : UsuarioDoKafka.values()) {
          usuarios.add(
              new UserScramCredentialUpsertion(
                  usuario.nome(),
                  new ScramCredentialInfo(ScramMechanism.SCRAM_SHA_512, 4096),
                  usuario.senhaLocal()));
        }
        admin
            .alterUserScramCredentials(usuarios)
            .all()
            .get(esperaDeInicio.toMillis(), MILLISECONDS);
        List<AclBinding> acls = AclsDoKafka.todas();
        admin.createAcls(acls).all().get(esperaDeInicio.toMillis(), MILLISECONDS);
        while (admin.describeAcls(AclBindingFilter.ANY).values().get().size() < acls.size()) {
          aguardarUmPouco(prazo, "the ACLs");
        }
      }
      // One request, so one metadata batch: once one user authenticates, all of them do.
      while (!autentica(kafka.cliente(UsuarioDoKafka.ADMINISTRADOR))) {
        aguardarUmPouco(prazo, "the SCRAM credentials");
      }
    }

    private static boolean autentica(Map<String, Object> cliente) throws Exception {
      try (Admin admin = Admin.create(cliente)) {
        admin.describeCluster().clusterId().get(5, TimeUnit.SECONDS);
        return true;
      } catch (ExecutionException e) {
        if (e.getCause() instanceof SaslAuthenticationException) {
          return false;
        }
        throw e;
      }
    }

    /** Between polls of the broker's state while it applies its metadata: a few milliseconds. */
    private static void aguardarUmPouco(long prazo, String oQue) throws InterruptedException {
      if (System.nanoTime() - prazo > 0) {
        throw new IllegalStateException("the broker did not apply " + oQue + " in time");
      }
      Thread.sleep(20);
    }

    /**
     * The test kit defaults to the newest in-development metadata version and unstable APIs; the
     * services will meet a released broker, so this one behaves like one.
     */
    private static BootstrapMetadata versaoDeProducao() {
      MetadataVersion versao = MetadataVersion.latestProduction();
      Map<String, Short> recursos = new TreeMap<>();
      for (Feature recurso : Feature.PRODUCTION_FEATURES) {
        recursos.put(recurso.featureName(), recurso.defaultLevel(versao));
      }
      return BootstrapMetadata.fromVersions(versao, recursos, "infra-local");
    }

    private void iniciarComLimite(KafkaClusterTestKit cluster) throws Exception {
      cluster.format();
      // waitForReadyBrokers() has no timeout of its own: a broker that never registers would
      // hang the caller forever.
      CompletableFuture<Void> pronto =
          CompletableFuture.runAsync(
              () -> {
                try {
                  cluster.startup();
                  cluster.waitForReadyBrokers();
                } catch (ExecutionException e) {
                  throw new IllegalStateException(e.getCause());
                } catch (InterruptedException e) {
                  Thread.currentThread().interrupt();
                  throw new IllegalStateException(e);
                }
              },
              tarefa -> new Thread(tarefa, "kafka-local-start").start());
      try {
        pronto.get(esperaDeInicio.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        throw new IllegalStateException("broker not ready after " + esperaDeInicio, e);
      } catch (ExecutionException e) {
        throw e.getCause() instanceof Exception causa ? causa : e;
      }
    }

    private static void fecharEmSilencio(KafkaClusterTestKit cluster) {
      if (cluster == null) {
        return;
      }
      try {
        cluster.close();
      } catch (Exception e) {
        log.debug("Error closing a Kafka that failed to start", e);
      }
    }
  }
}
