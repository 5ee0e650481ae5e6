# syntax=docker/dockerfile:1
# The Estate Content Service as a container image (docs/deployment.md).
#   docker build -t estate-content .
#   docker run -p 8000:8000 -e DATABASE_URL=postgres://user:password@db:5432/estate estate-content
# Without DATABASE_URL it serves the embedded database in /data (mount a volume there; one
# container per volume). Two stages: the build stage compiles TypeScript with the dev dependencies;
# the runtime stage holds only dist/ and the production dependencies and runs as the `node` user.

ARG NODE_IMAGE=node:24-bookworm-slim

# --- build: dev dependencies and tsc -------------------------------------------------------------
FROM ${NODE_IMAGE} AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY tsconfig.json tsconfig.build.json ./
COPY scripts/build-if-stale.mjs scripts/
COPY src/ src/
RUN npm run build

# --- runtime: production dependencies and dist/ only, non-root ----------------------------------
FROM ${NODE_IMAGE} AS runtime
ENV NODE_ENV=production \
    HOST=0.0.0.0 \
    PORT=8000 \
    DATA_DIR=/data
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund && npm cache clean --force
COPY --from=build /app/dist/ dist/
RUN mkdir -p /data && chown node:node /data
USER node
VOLUME ["/data"]
EXPOSE 8000
# GET /health answers 200 {"status":"ok"} while the database answers, 503 otherwise. Node's own
# fetch, so the slim image needs no curl.
HEALTHCHECK --interval=15s --timeout=5s --start-period=30s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 8000) + '/health', { signal: AbortSignal.timeout(4000) }).then((r) => process.exit(r.status === 200 ? 0 : 1), () => process.exit(1))"]
# SIGTERM: finish the requests under way (after SHUTDOWN_DELAY_MS), then exit 0.
STOPSIGNAL SIGTERM
CMD ["node", "dist/server.js"]
