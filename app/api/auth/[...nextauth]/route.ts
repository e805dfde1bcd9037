import NextAuth from "next-auth";
import { authOptionsFor } from "@/lib/auth/options";
import { parseCookieHeader } from "@/lib/auth/session";

type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: Context): Promise<Response> {
  return NextAuth(await authOptionsFor(parseCookieHeader(request.headers.get("cookie"))))(request, context);
}

export { handler as GET, handler as POST };
