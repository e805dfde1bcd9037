export { stockLevels as GET } from "@/lib/bff/routes";
