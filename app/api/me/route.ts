export { me as GET } from "@/lib/bff/routes";
