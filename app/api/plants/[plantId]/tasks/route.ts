export { tasks as GET, createTask as POST } from "@/lib/bff/routes";
