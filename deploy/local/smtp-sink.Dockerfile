# postfix's smtp-sink: a real SMTP server that accepts everything and keeps each message as a file in /dump
# (one file per message, so deliveries are counted where they land). Built by scripts/images as
# notifications/smtp-sink:local. Runs as root only to bind and then drops to nobody (-u nobody).
ARG BASE=notifications/debian:bookworm
FROM ${BASE}
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postfix >/dev/null \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /dump && chmod 777 /dump
EXPOSE 25
HEALTHCHECK --interval=10s --timeout=5s --retries=3 CMD ["bash", "-c", "exec 3<>/dev/tcp/127.0.0.1/25"]
ENTRYPOINT ["/usr/sbin/smtp-sink"]
CMD ["-u", "nobody", "-m", "1000", "-d", "/dump/%Y%m%d%H/%M.", "0.0.0.0:25", "1024"]
