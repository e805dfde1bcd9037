/**
 * Conformance: the graph operators (graph.ts) on small graphs, as Microsoft's graph pages describe
 * them: make-graph with and without a nodes table (ids the table lacks become nodes of empty
 * properties), graph-match's fixed and variable-length edges either way, map/all/any/inner_nodes,
 * the cycles option, node_degree_in/out and node_id, graph-shortest-paths' output=any|all,
 * graph-mark-components and graph-to-table.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

const PEOPLE = `let People = datatable(name:string, age:long) ["Alice", 32, "Bob", 31, "Eve", 27, "Joe", 29, "Chris", 45, "Ben", 23];`;
const REPORTS = `let Reports = datatable(employee:string, manager:string) ["Bob", "Alice", "Chris", "Alice", "Eve", "Bob", "Ben", "Chris", "Joe", "Alice", "Zed", "Eve"];`;
const GRAPH = `${PEOPLE}${REPORTS} Reports | make-graph employee --> manager with People on name`;
const RING = `datatable(a:string, b:string) ["x", "y", "y", "z", "z", "x", "z", "w"] | make-graph a --> b with_node_id=id`;

describe("graph operators", () => {
  conformance([
    { q: `${GRAPH} | graph-match (e)-[r]->(m) where m.name == "Alice" project who = e.name, age = e.age | sort by who asc`, rows: [["Bob", 31], ["Chris", 45], ["Joe", 29]], columns: ["who", "age"], types: ["string", "long"] },
    { q: `${GRAPH} | graph-match (boss)<-[r*1..3]-(e) where boss.name == "Alice" and e.age < 30 project e.name, path = map(r, manager) | sort by e_name asc`, rows: [["Ben", ["Alice", "Chris"]], ["Eve", ["Alice", "Bob"]], ["Joe", ["Alice"]]], columns: ["e_name", "path"] },
    // Zed is named by an edge only: a node with empty properties (ADX).
    { q: `${GRAPH} | graph-to-table nodes | sort by name asc | take 7`, rows: [["Alice", 32], ["Ben", 23], ["Bob", 31], ["Chris", 45], ["Eve", 27], ["Joe", 29], ["Zed", null]], columns: ["name", "age"] },
    { q: `${GRAPH} | graph-to-table edges | count`, rows: [[6]] },
    { q: `${GRAPH} | graph-match (e)-[r*2..2]->(m) project e.name, m.name, inner = map(inner_nodes(r), name) | sort by e_name asc`, rows: [["Ben", "Alice", ["Chris"]], ["Eve", "Alice", ["Bob"]], ["Zed", "Bob", ["Eve"]]] },
    { q: `${GRAPH} | graph-match (m)<-[r*1..2]-(e) where node_degree_in(m) == 3 and all(inner_nodes(r), node_degree_in() >= 1) project e.name, d = node_degree_out(e) | sort by e_name asc`, rows: [["Ben", 1], ["Bob", 1], ["Chris", 1], ["Eve", 1], ["Joe", 1]] },
    { q: `${GRAPH} | graph-match (a)-[r]-(b) where a.name == "Eve" project n = node_id(b) | sort by n asc`, rows: [["Bob"], ["Zed"]] },
    // The ring x → y → z → x: cycles=all walks it again, unique_edges (the default) not twice over one edge, none not through a node twice.
    { q: `${RING} | graph-match cycles=all (s)-[e*3..3]->(t) where s.id == "x" project t.id | sort by t_id asc`, rows: [["w"], ["x"]] },
    { q: `${RING} | graph-match (s)-[e*1..4]->(t) where s.id == "x" project t.id, p = strcat_array(map(e, a), "") | sort by p asc, t_id asc`, rows: [["y", "x"], ["z", "xy"], ["w", "xyz"], ["x", "xyz"]] },
    { q: `${RING} | graph-match cycles=none (s)-[e*1..4]->(t) where s.id == "x" project t.id, p = strcat_array(map(e, a), "") | sort by p asc`, rows: [["y", "x"], ["z", "xy"], ["w", "xyz"]] },
    { q: `${RING} | graph-match (s)-[e*1..3]->(t) where s.id == "y" and any(e, b == "w") project t.id`, rows: [["w"]] },
    { q: `${RING} | graph-shortest-paths (s)-[e*1..4]->(t) where s.id == "x" project t.id, p = strcat_array(map(e, a), "") | sort by t_id asc`, rows: [["w", "xyz"], ["y", "x"], ["z", "xy"]] },
    { q: `datatable(a:string, b:string) ["s", "p", "s", "q", "p", "t", "q", "t"] | make-graph a --> b with_node_id=id | graph-shortest-paths output=all (s)-[e*1..3]->(t) where s.id == "s" and t.id == "t" project via = map(e, b) | sort by tostring(via) asc`, rows: [[["p", "t"]], [["q", "t"]]] },
    { q: `datatable(a:string, b:string) ["s", "p", "s", "q", "p", "t", "q", "t"] | make-graph a --> b with_node_id=id | graph-shortest-paths (s)-[e*1..3]->(t) where s.id == "s" and t.id == "t" project via = map(e, b)`, rows: [[["p", "t"]]] },
    { q: `datatable(a:string, b:string) ["A", "B", "C", "B", "D", "E", "F", "F"] | make-graph a --> b with_node_id=name | graph-mark-components | graph-to-table nodes | sort by name asc`, rows: [["A", 0], ["B", 0], ["C", 0], ["D", 1], ["E", 1], ["F", 2]], columns: ["name", "ComponentId"], types: ["string", "long"] },
    // Two patterns sharing a node.
    { q: `${GRAPH} | graph-match (e)-[r1]->(m), (m)-[r2]->(top) where top.name == "Alice" project e.name, m.name | sort by e_name asc`, rows: [["Ben", "Chris"], ["Eve", "Bob"]] },
  ]);
});
