/** Plants and customers: what the service's scoping (plant tokens, telemetry per customer) reads. */
import type { SqlDb } from "@/lib/platform/sql";

export interface PlantRecord {
  id: string;
  name: string;
  customerId: string;
  /** IANA time zone of the site. */
  timeZone: string;
}

export interface CustomerRecord {
  id: string;
  name: string;
  plants: PlantRecord[];
}

export interface PlantReads {
  listPlants(): Promise<PlantRecord[]>;
  /** Every customer with its plants (telemetry is kept per customer). */
  listCustomers(): Promise<CustomerRecord[]>;
  findPlant(plantId: string): Promise<PlantRecord | undefined>;
}

const PLANT_COLUMNS = `id, name, customer_id AS "customerId", time_zone AS "timeZone"`;

export function plantReads(engine: SqlDb): PlantReads {
  const listPlants = () => engine.all<PlantRecord>(`SELECT ${PLANT_COLUMNS} FROM plants ORDER BY id`);
  return {
    listPlants,
    async listCustomers() {
      const plants = await listPlants();
      const customers = await engine.all<{ id: string; name: string }>(`SELECT id, name FROM customers ORDER BY id`);
      return customers.map((customer) => ({ ...customer, plants: plants.filter((plant) => plant.customerId === customer.id) }));
    },
    findPlant: (plantId) => engine.get<PlantRecord>(`SELECT ${PLANT_COLUMNS} FROM plants WHERE id = @plantId`, { plantId }),
  };
}
