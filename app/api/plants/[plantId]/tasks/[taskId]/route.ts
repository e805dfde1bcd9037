export { task as GET } from "@/lib/bff/routes";
