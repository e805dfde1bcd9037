// The telemetry query interface when Next.js serves it directly; normally scripts/serve.ts answers
// these paths before Next.js sees them. The logic lives in lib/service.
import { handleWithService } from "@/lib/service/next-route";

export const dynamic = "force-dynamic";

export const GET = handleWithService;
export const POST = handleWithService;
export const PUT = handleWithService;
export const DELETE = handleWithService;
export const PATCH = handleWithService;
