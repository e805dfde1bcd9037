/** The server hands its page interface in; the type is the server's (lib/bff/page-server.ts, PageServer). */
export function provideServer(server: object): void;
export function pageServer(): unknown;
