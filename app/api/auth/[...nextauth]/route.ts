import NextAuth from "next-auth";
import { server } from "@/app/page-server";

type Context = { params: Promise<{ nextauth: string[] }> };

async function handler(request: Request, context: Context): Promise<Response> {
  return NextAuth(await server().authOptions(request.headers))(request, context);
}

export { handler as GET, handler as POST };
