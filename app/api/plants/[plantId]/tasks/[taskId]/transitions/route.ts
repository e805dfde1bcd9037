export { transitionTask as POST } from "@/lib/bff/routes";
