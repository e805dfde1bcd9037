export { parts as GET } from "@/lib/bff/routes";
