import type { Metadata } from "next";
import { ContactPointsPage } from "@/modules/monitors/components/contact-points-page";
import { plantPage } from "../../plant-page";

export const metadata: Metadata = { title: "Contact points and routing" };

export default plantPage(ContactPointsPage, "Loading the contact points");
