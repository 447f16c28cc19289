# PostgreSQL 15 from Debian's package, on the locally built base (no registry here). Built by scripts/images as
# notifications/postgres:local. Behaves like the official postgres image where the project relies on it:
# POSTGRES_USER / POSTGRES_PASSWORD (or POSTGRES_PASSWORD_FILE) / POSTGRES_DB at the first start of an empty
# data directory, /docker-entrypoint-initdb.d/*.sql|*.sh run once, port 5432 on all interfaces, pg_isready.
# The project's schema is not in the image: `notifications-admin migrate` applies it (scripts/swarm up; docs/database.md).
ARG BASE=notifications/debian:bookworm
FROM ${BASE}
RUN mkdir -p /etc/postgresql-common && echo 'create_main_cluster = false' > /etc/postgresql-common/createcluster.conf \
 && apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends postgresql-15 >/dev/null \
 && rm -rf /var/lib/apt/lists/* \
 && mkdir -p /var/lib/postgresql/data /var/run/postgresql /docker-entrypoint-initdb.d \
 && chown -R postgres:postgres /var/lib/postgresql /var/run/postgresql && chmod 700 /var/lib/postgresql/data
COPY postgres-entrypoint.sh /usr/local/bin/
ENV PATH=/usr/lib/postgresql/15/bin:$PATH PGDATA=/var/lib/postgresql/data LANG=C.UTF-8
USER postgres
VOLUME /var/lib/postgresql/data
EXPOSE 5432
STOPSIGNAL SIGINT
ENTRYPOINT ["/usr/local/bin/postgres-entrypoint.sh"]
CMD ["postgres"]
