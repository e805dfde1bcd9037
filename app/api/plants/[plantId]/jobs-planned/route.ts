export { jobsPlanned as GET } from "@/lib/bff/routes";
