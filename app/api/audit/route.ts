export { auditLog as GET } from "@/lib/bff/routes";
