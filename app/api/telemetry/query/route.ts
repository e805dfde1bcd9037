export { telemetryQuery as POST } from "@/lib/bff/routes";
