import type { Metadata } from "next";
import { signInErrorMessage } from "@/components/auth/sign-in-errors";
import { SignInForm } from "@/components/auth/sign-in-form";
import { safeCallbackPath } from "@/lib/contract/callback-url";
import { server } from "@/app/page-server";

export const metadata: Metadata = { title: "Sign in" };

/** Only a path on this site, as a browser would read it (lib/contract/callback-url.ts): anything else is an open redirect. */
function safeCallback(value: string | string[] | undefined): string {
  return safeCallbackPath(Array.isArray(value) ? value[0] : value);
}

export default async function SignInPage({ searchParams }: { searchParams: Promise<Record<string, string | string[] | undefined>> }) {
  const params = await searchParams;
  const errorCode = Array.isArray(params.error) ? params.error[0] : params.error;
  const initialError = errorCode ? signInErrorMessage(errorCode.slice(0, 100)) : null;
  const { entraId, oidcName } = server().signInChoices();
  return (
    <main className="flex min-h-dvh items-center justify-center px-4 py-12">
      <div className="w-full max-w-sm rounded-xl border border-line bg-surface p-8 shadow-sm">
        <h1 className="text-2xl font-semibold tracking-tight">Sign in to Plantdesk</h1>
        <p className="mt-1 text-sm text-fg-muted">Maintenance and telemetry for your plants.</p>
        <SignInForm
          callbackUrl={safeCallback(params.callbackUrl)}
          initialError={initialError}
          entraId={entraId}
          oidcName={oidcName}
        />
      </div>
    </main>
  );
}
