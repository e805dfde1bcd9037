// The OpenAPI document when Next.js serves it directly (scripts/serve.ts normally answers first).
import { handleWithService } from "@/lib/service/next-route";

export const dynamic = "force-dynamic";

export const GET = handleWithService;
