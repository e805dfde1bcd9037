export { lookupValues as GET } from "@/lib/bff/routes";
