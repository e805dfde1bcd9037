import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import type { ReactNode } from "react";
import { Providers } from "@/components/shell/providers";
import { themeScript } from "@/components/shell/theme";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Plantdesk", template: "%s · Plantdesk" },
  description: "Plant maintenance and telemetry console",
};

export const viewport: Viewport = {
  themeColor: [
    { media: "(prefers-color-scheme: light)", color: "#f5f7fa" },
    { media: "(prefers-color-scheme: dark)", color: "#0b1120" },
  ],
};

export default async function RootLayout({ children }: { children: ReactNode }) {
  // The request's CSP nonce (proxy.ts): the one inline script of ours must carry it to run.
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // The theme script changes <html>'s class before React hydrates; that difference is expected.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: themeScript }} />
      </head>
      <body className="min-h-dvh bg-canvas font-sans text-fg">
        <Providers>{children}</Providers>
      </body>
    </html>
  );
}
