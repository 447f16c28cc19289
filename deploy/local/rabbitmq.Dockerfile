# RabbitMQ from Debian's package, on the locally built base (no registry here; production uses rabbitmq:4-management).
# Built by scripts/images as notifications/rabbitmq:local. Honours RABBITMQ_DEFAULT_USER / RABBITMQ_DEFAULT_PASS
# (as the official image does) and reads rabbitmq.conf fragments from /etc/rabbitmq/conf.d (the stack's secret).
ARG BASE=notifications/debian:bookworm
FROM ${BASE}
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends rabbitmq-server >/dev/null \
 && rm -rf /var/lib/apt/lists/* \
 && rabbitmq-plugins --offline enable rabbitmq_management rabbitmq_prometheus >/dev/null \
 && mkdir -p /etc/rabbitmq/conf.d && chown -R rabbitmq:rabbitmq /etc/rabbitmq /var/lib/rabbitmq
COPY rabbitmq-entrypoint.sh /usr/local/bin/
# Logs to standard output (docker logs; Testcontainers waits for "Server startup complete").
ENV RABBITMQ_LOGS=- RABBITMQ_CONFIG_FILES=/etc/rabbitmq/conf.d HOME=/var/lib/rabbitmq
USER rabbitmq
VOLUME /var/lib/rabbitmq
EXPOSE 5672 15672 15692
STOPSIGNAL SIGTERM
ENTRYPOINT ["/usr/local/bin/rabbitmq-entrypoint.sh"]
# Not /usr/sbin/rabbitmq-server: Debian's wrapper sends the log to /var/log/rabbitmq/startup_log.
CMD ["/usr/lib/rabbitmq/bin/rabbitmq-server"]
