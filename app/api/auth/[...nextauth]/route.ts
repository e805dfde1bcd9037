import NextAuth from "next-auth";
import { getAuthOptions } from "@/lib/auth/options";

type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: Context): Promise<Response> {
  return NextAuth(await getAuthOptions())(request, context);
}

export { handler as GET, handler as POST };
