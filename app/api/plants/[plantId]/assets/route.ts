export { assets as GET } from "@/lib/bff/routes";
