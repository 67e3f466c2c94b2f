# syntax=docker/dockerfile:1
# Multi-stage build: dependencies and the build run in throwaway stages; the final image
# holds the production dependencies, the built app and the TypeScript that Node 24 runs directly.

FROM node:24-slim AS prod-deps
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --omit=dev --no-audit --no-fund

FROM node:24-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
RUN npm ci --no-audit --no-fund
COPY . .
RUN npm run build

FROM node:24-slim
ENV NODE_ENV=production PORT=3000 HOST=0.0.0.0 DATA_DIR=/data
# glibc's allocator hands freed memory back instead of keeping it per thread (ADR 0039; as `npm start`).
ENV GLIBC_TUNABLES=glibc.malloc.arena_max=2:glibc.malloc.trim_threshold=1048576:glibc.malloc.mmap_threshold=1048576
WORKDIR /app
RUN mkdir -p /data && chown node:node /data
COPY --from=prod-deps /app/node_modules ./node_modules
COPY --from=build /app/build ./build
COPY package.json server.ts ./
COPY server ./server
COPY contract ./contract
COPY provider ./provider
# server.ts runs a few app/server modules directly (settings, session for the live sockets).
COPY app ./app
COPY public ./public
USER node
VOLUME ["/data"]
EXPOSE 3000
HEALTHCHECK --interval=30s --timeout=5s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:3000/healthz').then(r => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
CMD ["node", "server.ts"]
