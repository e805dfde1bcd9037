/**
 * The vocabulary of the maintenance demo data: plant layouts, equipment, spare parts, people and
 * the company-specific lookup values (which differ between the two demo customers on purpose, so
 * the dashboard's forms must fetch them per plant).
 */
import { z } from "zod";
import { LOOKUP_KINDS } from "@/lib/contract/vocabulary";
import customerVocabulary from "./customer-vocabulary.json" with { type: "json" };
import plantLayouts from "./plant-layouts.json" with { type: "json" };

const ZCustomerVocabulary = z.object({
  lookups: z.array(z.object({ kind: z.enum(LOOKUP_KINDS), value: z.string(), label: z.string() })),
  departments: z.object({ mechanical: z.string(), electrical: z.string(), instrument: z.string(), reliability: z.string(), production: z.string() }),
  /** Lookup value of each kind of work, for picking believable combinations. */
  activity: z.object({ preventive: z.string(), corrective: z.string(), inspection: z.string(), lubrication: z.string(), calibration: z.string(), modification: z.string() }),
  roles: z.object({ mechanical: z.string(), electrical: z.string(), instrument: z.string(), planner: z.string(), operator: z.string() }),
  /** Urgent, high, normal, low. */
  priorities: z.tuple([z.string(), z.string(), z.string(), z.string()]),
});

export type CustomerVocabulary = z.infer<typeof ZCustomerVocabulary>;

/** Each demo customer's own words: lookup values, departments, roles, priorities. Data: customer-vocabulary.json, checked on load. */
export const CUSTOMER_VOCABULARY: Record<string, CustomerVocabulary> = z.record(z.string(), ZCustomerVocabulary).parse(customerVocabulary);

interface ComponentKind {
  code: string;
  name: string;
  assetType: string;
  makers: readonly (readonly [string, string])[];
  /** Spare-part families this component consumes. */
  parts: readonly string[];
}

export const COMPONENTS: Record<string, ComponentKind> = {
  MTR: { code: "MTR", name: "Drive motor", assetType: "MOTOR", makers: [["ABB", "M3BP 280SMB 4"], ["Siemens", "1LE1503-2DB2"], ["WEG", "W22 IE3 250"]], parts: ["bearing", "fuse", "contactor", "cable"] },
  BRG: { code: "BRG", name: "Bearing housing", assetType: "BEARING", makers: [["SKF", "SNL 517"], ["Timken", "SAF 22517"], ["Schaeffler", "SNV 130"]], parts: ["bearing", "grease", "oring"] },
  SEAL: { code: "SEAL", name: "Mechanical seal", assetType: "SEAL", makers: [["John Crane", "Type 1"], ["EagleBurgmann", "M7N"], ["Flowserve", "ISC2"]], parts: ["seal", "oring", "gasket"] },
  GBX: { code: "GBX", name: "Gearbox", assetType: "GEARBOX", makers: [["SEW-Eurodrive", "R97 DRN"], ["Flender", "FZG 180"], ["Nord", "SK 9052.1"]], parts: ["gearoil", "bearing", "seal"] },
  VFD: { code: "VFD", name: "Frequency converter", assetType: "DRIVE", makers: [["ABB", "ACS880-01"], ["Danfoss", "VLT FC 302"], ["Siemens", "SINAMICS G120"]], parts: ["fan", "fuse", "filter"] },
  CPL: { code: "CPL", name: "Coupling", assetType: "COUPLING", makers: [["Rexnord", "Omega E20"], ["KTR", "ROTEX 75"], ["Vulkan", "EZ 2"]], parts: ["coupling", "bolts"] },
  TX: { code: "TT", name: "Temperature transmitter", assetType: "INSTRUMENT", makers: [["Endress+Hauser", "iTEMP TMT82"], ["Emerson", "Rosemount 644"], ["VEGA", "VEGABAR 82"]], parts: ["sensor", "cable"] },
  PX: { code: "PT", name: "Pressure transmitter", assetType: "INSTRUMENT", makers: [["Endress+Hauser", "Cerabar PMC71"], ["Emerson", "Rosemount 3051"], ["Yokogawa", "EJA110E"]], parts: ["sensor", "gasket"] },
};

interface MachineKind {
  code: string;
  names: readonly string[];
  assetType: string;
  makers: readonly (readonly [string, string])[];
  components: readonly string[];
  criticality: "A" | "B" | "C";
  parts: readonly string[];
  /** Who usually works on it. */
  trade: "mechanical" | "electrical" | "instrument";
}

export const MACHINES: Record<string, MachineKind> = {
  pump: { code: "P", names: ["Feed pump", "Transfer pump", "Circulation pump", "Dosing pump", "Condensate pump"], assetType: "PUMP", makers: [["Sulzer", "AHLSTAR A22-80"], ["KSB", "Etanorm 65-200"], ["Grundfos", "NK 80-250"], ["Flowserve", "Durco Mark 3"]], components: ["MTR", "SEAL", "BRG", "CPL"], criticality: "B", parts: ["seal", "impeller", "gasket", "bearing"], trade: "mechanical" },
  compressor: { code: "K", names: ["Air compressor", "Process gas compressor", "Refrigeration compressor"], assetType: "COMPRESSOR", makers: [["Atlas Copco", "GA 90 VSD+"], ["Kaeser", "CSD 125"], ["Ingersoll Rand", "RS75n"]], components: ["MTR", "VFD", "BRG"], criticality: "A", parts: ["filter", "compressoroil", "belt", "valve"], trade: "mechanical" },
  agitator: { code: "AG", names: ["Reactor agitator", "Blend tank mixer", "Slurry agitator"], assetType: "AGITATOR", makers: [["EKATO", "HWL 2000"], ["SPX Lightnin", "Series 70"], ["Stelzer", "LRT 1500"]], components: ["MTR", "GBX", "SEAL"], criticality: "A", parts: ["seal", "gearoil", "bearing"], trade: "mechanical" },
  exchanger: { code: "E", names: ["Feed/effluent exchanger", "Product cooler", "Reboiler", "Plate heat exchanger"], assetType: "HEAT_EXCHANGER", makers: [["Alfa Laval", "M10-BFG"], ["Kelvion", "NT 100T"], ["SPX Flow", "APV N35"]], components: ["TX", "PX"], criticality: "B", parts: ["gasket", "bolts"], trade: "mechanical" },
  reactor: { code: "R", names: ["Batch reactor", "Continuous stirred reactor", "Polymerisation reactor"], assetType: "REACTOR", makers: [["De Dietrich", "AE 6300"], ["Pfaudler", "RA-63"], ["Büchi", "BR 8000"]], components: ["TX", "PX"], criticality: "A", parts: ["gasket", "sensor", "bolts"], trade: "instrument" },
  conveyor: { code: "CV", names: ["Belt conveyor", "Screw conveyor", "Roller conveyor"], assetType: "CONVEYOR", makers: [["Interroll", "RollerDrive EC5000"], ["Bosch Rexroth", "VarioFlow"], ["Continental", "ContiTech 500"]], components: ["MTR", "GBX"], criticality: "C", parts: ["belt", "bearing", "chain"], trade: "mechanical" },
  fan: { code: "F", names: ["Exhaust fan", "Combustion air fan", "Cooling tower fan"], assetType: "FAN", makers: [["ebm-papst", "RadiCal K3G"], ["Howden", "Variax"], ["Nicotra Gebhardt", "RZR 15-0900"]], components: ["MTR", "VFD", "BRG"], criticality: "C", parts: ["belt", "bearing", "filter"], trade: "mechanical" },
  valve: { code: "XV", names: ["On/off valve", "Control valve", "Steam valve"], assetType: "VALVE", makers: [["Samson", "3241"], ["Fisher", "GX"], ["Metso Neles", "RE1"]], components: ["PX"], criticality: "B", parts: ["positioner", "gasket", "oring"], trade: "instrument" },
  extruder: { code: "X", names: ["Twin-screw extruder", "Single-screw extruder"], assetType: "EXTRUDER", makers: [["Coperion", "ZSK 92 Mv PLUS"], ["KraussMaffei", "ZE 75 BluePower"], ["Leistritz", "ZSE 75 MAXX"]], components: ["MTR", "GBX", "TX", "VFD"], criticality: "A", parts: ["heater", "screwelement", "gearoil", "sensor"], trade: "mechanical" },
  pelletizer: { code: "PZ", names: ["Underwater pelletizer", "Strand pelletizer"], assetType: "PELLETIZER", makers: [["Maag", "SPHERO 70"], ["Gala", "A5 PAC 6"]], components: ["MTR", "VFD"], criticality: "B", parts: ["knife", "screen", "bearing"], trade: "mechanical" },
  refiner: { code: "RF", names: ["Double-disc refiner", "Conical refiner"], assetType: "REFINER", makers: [["Valmet", "OptiFiner Pro RF-2"], ["Andritz", "PapilloN CR60"]], components: ["MTR", "BRG", "SEAL"], criticality: "A", parts: ["refinerplate", "seal", "bearing"], trade: "mechanical" },
  pulper: { code: "PU", names: ["Broke pulper", "Stock pulper"], assetType: "PULPER", makers: [["Valmet", "OptiSlush"], ["Andritz", "FibreSolve FSV"]], components: ["MTR", "GBX"], criticality: "B", parts: ["rotor", "screen", "gearoil"], trade: "mechanical" },
  roll: { code: "RL", names: ["Press roll", "Dryer cylinder", "Suction couch roll", "Guide roll"], assetType: "ROLL", makers: [["Valmet", "SymBelt"], ["Voith", "NipcoFlex"], ["Andritz", "PrimePress X"]], components: ["BRG", "TX"], criticality: "A", parts: ["bearing", "felt", "doctorblade", "grease"], trade: "mechanical" },
  winder: { code: "WN", names: ["Reel winder", "Slitter winder"], assetType: "WINDER", makers: [["Valmet", "OptiWin Drum"], ["Voith", "VariFlex M"]], components: ["MTR", "VFD", "GBX"], criticality: "A", parts: ["knife", "belt", "sensor"], trade: "electrical" },
  screen: { code: "SC", names: ["Pressure screen", "Vibrating screen"], assetType: "SCREEN", makers: [["Andritz", "ModuScreen HBE"], ["Kadant", "MultiScreen"]], components: ["MTR", "BRG"], criticality: "B", parts: ["screen", "seal", "rotor"], trade: "mechanical" },
};

interface PlantLayout {
  areas: { name: string; lines: { name: string; machines: readonly string[] }[] }[];
  building: readonly string[];
}

/** Areas, lines and their machines per demo plant, and the buildings they stand in. Data: plant-layouts.json. */
export const PLANT_LAYOUTS: Record<string, PlantLayout> = plantLayouts;

/** Spare-part families: how to name an item, its unit, and a typical stock range. */
export const PART_FAMILIES: Record<string, { unit: string; items: readonly string[]; stock: readonly [number, number] }> = {
  bearing: { unit: "PCS", items: ["Deep groove ball bearing SKF 6205-2RS1", "Deep groove ball bearing SKF 6310-2Z", "Spherical roller bearing SKF 22220 EK", "Cylindrical roller bearing NU 2214 ECP", "Angular contact bearing 7312 BECBM", "Tapered roller bearing 32216 J2"], stock: [2, 24] },
  seal: { unit: "PCS", items: ["Mechanical seal cartridge 50 mm", "Mechanical seal M7N/65", "Shaft seal ring 75x100x10 FKM", "Lip seal 60x80x8 NBR"], stock: [1, 10] },
  oring: { unit: "BOX", items: ["O-ring kit NBR 382 pcs", "O-ring kit FKM 225 pcs", "O-ring assortment EPDM"], stock: [1, 6] },
  gasket: { unit: "PCS", items: ["Spiral wound gasket DN80 PN40", "Spiral wound gasket DN150 PN16", "PTFE envelope gasket DN100", "Plate heat exchanger gasket set"], stock: [4, 40] },
  impeller: { unit: "PCS", items: ["Pump impeller 200 mm duplex", "Pump impeller 250 mm CD4MCu"], stock: [0, 3] },
  grease: { unit: "KG", items: ["Bearing grease SKF LGHP 2", "Lithium complex grease EP2", "High temperature grease Klüber"], stock: [5, 60] },
  gearoil: { unit: "L", items: ["Gear oil ISO VG 220", "Gear oil ISO VG 320 synthetic", "Gear oil ISO VG 460"], stock: [20, 400] },
  compressoroil: { unit: "L", items: ["Compressor oil Roto-Inject Fluid NDURANCE", "Compressor oil ISO VG 46"], stock: [10, 120] },
  filter: { unit: "PCS", items: ["Air filter element 2914 9300 00", "Oil filter element 1513 0336 99", "Cabinet filter mat G4", "Inlet filter cartridge F7"], stock: [2, 30] },
  belt: { unit: "PCS", items: ["V-belt SPB 2500", "V-belt SPA 1800", "Timing belt HTD 1400-8M-30", "Conveyor belt splice kit"], stock: [2, 20] },
  chain: { unit: "M", items: ["Roller chain 16B-1", "Roller chain 20B-2"], stock: [5, 40] },
  valve: { unit: "SET", items: ["Compressor valve kit", "Check valve repair kit"], stock: [0, 6] },
  coupling: { unit: "PCS", items: ["Coupling element Omega E20", "ROTEX spider 75 98 ShA", "Coupling insert N-EUPEX 200"], stock: [1, 8] },
  bolts: { unit: "BOX", items: ["Stud bolts M16x120 B7 (box of 25)", "Hex bolts M20x80 A4-80 (box of 50)", "Anchor bolts M12 (box of 100)"], stock: [1, 12] },
  fuse: { unit: "PCS", items: ["NH fuse 00 gG 125 A", "Cylindrical fuse 10x38 aM 16 A", "Semiconductor fuse 315 A"], stock: [6, 60] },
  contactor: { unit: "PCS", items: ["Contactor AF96-30-00", "Contactor 3RT2036", "Motor protection breaker 3RV2021"], stock: [1, 8] },
  cable: { unit: "M", items: ["Control cable 12x1.5 mm²", "Power cable 4x16 mm² NYY-J", "Instrument cable 2x2x0.75 screened"], stock: [20, 500] },
  fan: { unit: "PCS", items: ["Drive cooling fan 24 V", "Cabinet fan 230 V 120 mm"], stock: [1, 8] },
  sensor: { unit: "PCS", items: ["Pt100 element 6 mm x 250 mm", "Proximity switch M18 PNP", "Vibration sensor 100 mV/g", "Pressure sensor 0–16 bar 4–20 mA"], stock: [1, 12] },
  positioner: { unit: "PCS", items: ["Valve positioner SIPART PS2", "Positioner Samson 3730-3"], stock: [0, 4] },
  heater: { unit: "PCS", items: ["Barrel heater band 230 V 2 kW", "Cartridge heater 16 mm 800 W"], stock: [2, 16] },
  screwelement: { unit: "SET", items: ["Screw element kit 92 mm kneading", "Screw element kit 75 mm conveying"], stock: [0, 3] },
  knife: { unit: "SET", items: ["Pelletizer knife set", "Slitter knife set 200 mm", "Circular knife 150 mm"], stock: [1, 10] },
  screen: { unit: "PCS", items: ["Screen basket 0.2 mm slot", "Pelletizer screen pack 40 mesh", "Perforated screen plate 6 mm"], stock: [0, 5] },
  refinerplate: { unit: "SET", items: ["Refiner plate set LC 34\"", "Refiner plate set conical CF 60"], stock: [0, 4] },
  rotor: { unit: "PCS", items: ["Pulper rotor 1400 mm", "Screen rotor foil set"], stock: [0, 2] },
  felt: { unit: "ROLL", items: ["Press felt 1st press", "Press felt pickup", "Dryer fabric 1st group"], stock: [0, 3] },
  doctorblade: { unit: "BOX", items: ["Doctor blade steel 100x1.0 mm", "Doctor blade composite 80 mm"], stock: [1, 10] },
  safety: { unit: "PAIR", items: ["Cut-resistant gloves size 10", "Chemical gloves nitrile size 9"], stock: [10, 120] },
  tape: { unit: "ROLL", items: ["PTFE thread seal tape 12 mm", "Self-amalgamating tape 25 mm"], stock: [5, 50] },
  consumable: { unit: "ML", items: ["Thread locker medium strength 50 ml", "Contact cleaner spray 400 ml"], stock: [100, 2000] },
  weld: { unit: "KG", items: ["Welding electrodes E7018 3.2 mm"], stock: [2, 25] },
  shim: { unit: "MM", items: ["Stainless shim stock 0.1 mm"], stock: [100, 1000] },
  lab: { unit: "G", items: ["Silica gel desiccant"], stock: [200, 5000] },
};

/** Families every plant keeps in store whatever its equipment. */
export const GENERAL_FAMILIES = ["safety", "tape", "consumable", "weld", "shim", "lab", "grease", "fuse", "cable", "bolts"];

export const PEOPLE: Record<string, readonly (readonly [string, string])[]> = {
  RTM1: [["Jan", "de Vries"], ["Sanne", "Bakker"], ["Pieter", "Janssen"], ["Fatima", "El Amrani"], ["Kees", "Visser"], ["Lotte", "Smit"], ["Mehmet", "Yilmaz"], ["Bram", "Mulder"], ["Eva", "de Boer"], ["Ruud", "Meijer"], ["Anouk", "Hendriks"], ["Dennis", "van Dijk"]],
  HOU1: [["Mike", "Johnson"], ["Carlos", "Ramirez"], ["Ashley", "Nguyen"], ["Darnell", "Brooks"], ["Jennifer", "Walker"], ["Luis", "Hernandez"], ["Tyler", "Bennett"], ["Maria", "Gonzalez"], ["Kevin", "Tran"], ["Brittany", "Cole"], ["Jamal", "Washington"], ["Rachel", "Kim"]],
  OUL1: [["Mikko", "Korhonen"], ["Aino", "Virtanen"], ["Juha", "Mäkinen"], ["Satu", "Nieminen"], ["Timo", "Heikkinen"], ["Laura", "Hämäläinen"], ["Antti", "Laine"], ["Riikka", "Koskinen"], ["Jari", "Järvinen"], ["Heidi", "Lehtonen"], ["Ville", "Saarinen"], ["Petri", "Salminen"]],
};

/** Job and task titles by the kind of work; `{asset}` is the asset's name and tag. */
export const WORK_TITLES = {
  preventive: ["Quarterly PM on {asset}", "Annual overhaul of {asset}", "Check alignment and vibration of {asset}", "Replace filters on {asset}", "Tighten and inspect fasteners on {asset}", "Clean and inspect {asset}"],
  corrective: ["Replace leaking seal on {asset}", "Replace worn bearing on {asset}", "Repair oil leak at {asset}", "Reset trip and investigate {asset}", "Replace damaged belt on {asset}", "Fix abnormal noise from {asset}", "Repair broken cable gland on {asset}", "Replace failed sensor on {asset}"],
  inspection: ["Vibration route: {asset}", "Thermography of {asset}", "Visual inspection of {asset}", "Ultrasonic leak check at {asset}", "Safety inspection of {asset}"],
  lubrication: ["Regrease bearings of {asset}", "Oil change on {asset}", "Top up lubricant on {asset}", "Oil sample from {asset}"],
  calibration: ["Calibrate transmitters of {asset}", "Loop check on {asset}", "Verify trip settings of {asset}"],
  modification: ["Install guard upgrade on {asset}", "Replace obsolete drive of {asset}", "Fit condition monitoring sensor to {asset}"],
} as const;

export const WORK_ORDER_REMARKS = [
  "Completed as planned.",
  "Completed; no findings.",
  "Found wear beyond limits; parts replaced.",
  "Temporary fix applied, follow-up task raised.",
  "Work done during production stop.",
  "Contractor support needed for lifting.",
  "Vibration back within limits after repair.",
  "Lubricant contaminated; flushed and refilled.",
];

export const TASK_DESCRIPTIONS = [
  "Operator reported during the night shift. Please check before the weekend.",
  "Noticed during the inspection round; no immediate risk.",
  "Vibration trend rising over the last two weeks (see condition monitoring).",
  "Leak is small but increasing. Catch tray placed.",
  "Follow-up of the last repair: confirm the fix holds.",
  "Requested by production to avoid an unplanned stop.",
  "Safety observation from the walk-through.",
];
