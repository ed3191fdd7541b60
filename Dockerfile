# syntax=docker/dockerfile:1
# svc as an image: the four packages built and packed here, installed from their tarballs into a clean runtime
# stage (no sources, no dev dependencies), run as the unprivileged `node` user. Docs: deploy/README.md, "Docker".
#   docker build -t svc .
#   docker run -p 8787:8787 -v svc-data:/data svc                                    # embedded database in /data
#   docker run -p 8787:8787 -e DATABASE_URL=postgres://… -e PUBLIC_URL=https://… svc  # on PostgreSQL
ARG NODE_IMAGE=node:20-bookworm-slim

FROM ${NODE_IMAGE} AS build
WORKDIR /src
# The manifests first, so a change to the sources does not repeat the install.
COPY package.json package-lock.json ./
COPY packages/core/package.json packages/core/
COPY packages/adapters/package.json packages/adapters/
COPY packages/server/package.json packages/server/
COPY packages/client/package.json packages/client/
# Optional dependencies (the local AT Protocol network the tests start) are not needed to build.
RUN npm ci --ignore-scripts --omit=optional --no-audit --no-fund
COPY . .
RUN npm run build \
 && mkdir /packed \
 && npm pack --pack-destination /packed \
      --workspace packages/core --workspace packages/adapters --workspace packages/client --workspace packages/server

FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production
WORKDIR /opt/svc
COPY --from=build /packed/ /tmp/packed/
# As a team installs svc from the registry: the server and what it pulls in, nothing else.
RUN echo '{"name":"svc-image","private":true}' > package.json \
 && npm install --omit=dev --no-audit --no-fund /tmp/packed/*.tgz \
 && rm -rf /tmp/packed /root/.npm \
 && mkdir -p /data \
 && chown node:node /data
USER node
# The embedded database and media live in /data unless DATABASE_URL (and SVC_MEDIA_STORE=s3) say otherwise.
ENV HOST=0.0.0.0 \
    PORT=8787 \
    DATA_DIR=/data
VOLUME ["/data"]
EXPOSE 8787
# SIGTERM drains: /ready turns 503, requests in flight finish (SVC_DRAIN_DELAY_MS, SVC_DRAIN_TIMEOUT_MS).
STOPSIGNAL SIGTERM
HEALTHCHECK --interval=5s --timeout=2s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:'+(process.env.PORT||8787)+'/ready').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))"]
ENTRYPOINT ["node", "/opt/svc/node_modules/@svc/server/bin/svc.mjs"]
CMD ["serve"]
