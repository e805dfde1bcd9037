export { jobsDone as GET } from "@/lib/bff/routes";
