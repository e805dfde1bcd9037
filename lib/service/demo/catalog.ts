/**
 * The demo's customers and plants: fixed, so that the maintenance seed, the telemetry seed, the
 * tests and the docs all name the same ones. Everything else in the demo data is generated from
 * `SEED` (see the seed modules beside this file).
 */
interface DemoCustomer {
  id: string;
  name: string;
}

export interface DemoPlant {
  id: string;
  name: string;
  customerId: string;
  /** IANA time zone of the site: daily cycles in the telemetry follow local time. */
  timeZone: string;
}

export const DEMO_CUSTOMERS: readonly DemoCustomer[] = [
  { id: "CUST-ACME", name: "Acme Process Industries" },
  { id: "CUST-NORDIC", name: "Nordic Paper & Pulp" },
];

export const DEMO_PLANTS: readonly DemoPlant[] = [
  { id: "RTM1", name: "Rotterdam Chemicals", customerId: "CUST-ACME", timeZone: "Europe/Amsterdam" },
  { id: "HOU1", name: "Houston Polymers", customerId: "CUST-ACME", timeZone: "America/Chicago" },
  { id: "OUL1", name: "Oulu Paper Mill", customerId: "CUST-NORDIC", timeZone: "Europe/Helsinki" },
];
