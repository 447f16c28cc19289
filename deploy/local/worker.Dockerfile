# A worker (producer or consumer) on the locally built base: no registry here, so no SDK or aspnet image.
# The context (staged by scripts/images) holds app/ (a framework-dependent `dotnet publish`) and dotnet/ (the
# build machine's own .NET runtime: dotnet host, Microsoft.NETCore.App, Microsoft.AspNetCore.App).
# Production builds keep Producer/Dockerfile and Consumer/Dockerfile (official SDK and aspnet images).
ARG BASE=notifications/debian:bookworm
FROM ${BASE}
RUN apt-get update -qq \
 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends ca-certificates libicu72 libssl3 zlib1g >/dev/null \
 && rm -rf /var/lib/apt/lists/* \
 && useradd --uid 1654 --user-group --no-create-home --home-dir /app app
COPY dotnet/ /usr/share/dotnet/
RUN ln -s /usr/share/dotnet/dotnet /usr/bin/dotnet
ENV DOTNET_ROOT=/usr/share/dotnet
ARG WORKER
ENV WORKER_DLL=Notifications.${WORKER}.dll
WORKDIR /app
COPY app/ /app/
# The same non-root uid as the aspnet image's app user (APP_UID 1654).
USER 1654
# exec: dotnet replaces the shell as PID 1, so Docker's SIGTERM reaches the worker (graceful shutdown).
ENTRYPOINT ["/bin/sh", "-c", "exec dotnet /app/$WORKER_DLL \"$@\"", "--"]
