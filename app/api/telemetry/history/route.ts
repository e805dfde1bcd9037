export { queryHistory as GET, saveQuery as POST, updateQuery as PATCH } from "@/lib/bff/routes";
