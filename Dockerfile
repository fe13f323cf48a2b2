# syntax=docker/dockerfile:1

# Build: compile the TypeScript, then keep only the production dependencies.
FROM node:24-bookworm-slim AS build
WORKDIR /app
COPY package.json package-lock.json ./
COPY tsconfig.json ./
COPY src ./src
# `npm ci` runs `prepare`, which compiles src/ to dist/.
RUN npm ci && npm prune --omit=dev

# Run: the compiled code, production dependencies and migrations, as an unprivileged user.
FROM node:24-bookworm-slim
ENV NODE_ENV=production \
    PORT=3000 \
    HOST=0.0.0.0 \
    DATA_DIR=/app/data
WORKDIR /app
COPY --from=build /app/node_modules ./node_modules
COPY --from=build /app/dist ./dist
COPY package.json ./
COPY migrations ./migrations
COPY web ./web
COPY locales ./locales
COPY lexicons ./lexicons
# The embedded database (when DATABASE_URL is unset) needs a directory the app may write.
RUN mkdir -p /app/data && chown node:node /app/data
USER node
EXPOSE 3000
HEALTHCHECK --interval=10s --timeout=3s --start-period=20s --retries=3 \
  CMD ["node", "-e", "fetch('http://127.0.0.1:' + (process.env.PORT || 3000) + '/health').then((r) => process.exit(r.ok ? 0 : 1), () => process.exit(1))"]
# node directly, not npm: SIGTERM reaches the server, which drains its connections.
CMD ["node", "dist/main.js"]
