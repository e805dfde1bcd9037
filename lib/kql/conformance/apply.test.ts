/**
 * Conformance: mv-apply and partition (partitioned.ts), each pipeline run on its part of the rows
 * apart; expected rows are the outputs Microsoft's documentation prints (mv-apply-operator,
 * partition-operator pages) and ADX's documented semantics for the edges.
 */
import { describe } from "vitest";
import { conformance } from "../../service/telemetry/testing/kql-conformance";

const ARR = "datatable (index: int, Arr: dynamic) [0, dynamic([5, 1, 3]), 1, dynamic([4, 10, 8, 7])]";

describe("mv-apply", () => {
  conformance([
    // Docs: take 100 keeps every element; top 1 the largest; top 2 then make_list; with_itemindex; two arrays zipped.
    { q: "datatable (index: int, Arr: dynamic) [0, dynamic([7]), 1, dynamic([6, 11, 7])] | mv-apply Arr2=Arr to typeof(long) on (take 100)", rows: [[0,[7],7],[1,[6,11,7],6],[1,[6,11,7],11],[1,[6,11,7],7]], columns: ["index","Arr","Arr2"], types: ["int","dynamic","long"] },
    { q: "datatable (index: int, Arr: dynamic) [0, dynamic([1, 5, 3]), 1, dynamic([10, 2, 5, 7])] | mv-apply topElem=Arr to typeof(long) on (top 1 by topElem)", rows: [[0,[1,5,3],5],[1,[10,2,5,7],10]], columns: ["index","Arr","topElem"], types: ["int","dynamic","long"] },
    { q: `${ARR} | mv-apply Arr2=Arr to typeof(long) on (top 2 by Arr2 | summarize Top2=make_list(Arr2))`, rows: [[0,[5,1,3],[5,3]],[1,[4,10,8,7],[10,8]]], columns: ["index","Arr","Top2"], types: ["int","dynamic","dynamic"] },
    { q: `${ARR} | mv-apply with_itemindex=i value=Arr to typeof(long) on (where i >= 2)`, rows: [[0,[5,1,3],3,2],[1,[4,10,8,7],8,2],[1,[4,10,8,7],7,3]], columns: ["index","Arr","value","i"], types: ["int","dynamic","long","long"] },
    { q: "datatable (Val: int, Arr1: dynamic, Arr2: dynamic) [1, dynamic(['A1', 'A2']), dynamic(['B1', 'B2', 'B3']), 5, dynamic(['C1', 'C2']), dynamic(['D1'])] | mv-apply T1=Arr1, T2=Arr2 on (extend Out = strcat(T1, \"_\", T2) | summarize Out= make_list(Out))", rows: [[1,["A1","A2"],["B1","B2","B3"],["A1_B1","A2_B2","_B3"]],[5,["C1","C2"],["D1"],["C1_D1","C2_"]]], columns: ["Val","Arr1","Arr2","Out"] },
    // A row whose pipeline gives no rows is dropped; count and sum per row; the array column itself replaced.
    { q: `${ARR} | mv-apply x=Arr to typeof(long) on (where x > 6)`, rows: [[1,[4,10,8,7],10],[1,[4,10,8,7],8],[1,[4,10,8,7],7]], columns: ["index","Arr","x"], types: ["int","dynamic","long"] },
    { q: `${ARR} | mv-apply x=Arr to typeof(long) on (where x > 2 | count)`, rows: [[0,[5,1,3],2],[1,[4,10,8,7],4]], columns: ["index","Arr","Count"], types: ["int","dynamic","long"] },
    { q: `${ARR} | mv-apply Arr to typeof(long) on (summarize Arr = sum(Arr))`, rows: [[0,9],[1,29]], columns: ["index","Arr"], types: ["int","long"] },
    { q: `${ARR} | mv-apply x=Arr to typeof(long) on (sort by x asc | take 1 | project y = x * 2)`, rows: [[0,[5,1,3],2],[1,[4,10,8,7],8]], columns: ["index","Arr","y"], types: ["int","dynamic","long"] },
    // Equal rows stay two rows, each with its own result.
    { q: "datatable (a: dynamic) [dynamic([1, 2]), dynamic([1, 2])] | mv-apply x=a to typeof(long) on (summarize s = sum(x)) | project s", rows: [[3],[3]], columns: ["s"] },
    { q: "States | summarize v = make_list(todouble(Value)) by DeviceId | mv-apply x=v to typeof(real) on (top 1 by x) | project DeviceId, x | order by DeviceId asc", rows: [["D1",25.5],["D2",30],["D3",18],["D4",100]], columns: ["DeviceId","x"] },
  ]);
});

describe("partition", () => {
  conformance([
    { q: "range x from 1 to 10 step 1 | extend k = x % 3 | partition by k (top 2 by x) | order by x asc", rows: [[5,2],[6,0],[8,2],[9,0],[7,1],[10,1]].sort((a, b) => a[0]! - b[0]!), columns: ["x","k"] },
    { q: "range x from 1 to 10 step 1 | extend k = x % 2 | partition hint.strategy=shuffle by k (summarize n = count(), s = sum(x))", rows: [[5,25],[5,30]], columns: ["n","s"] },
    { q: "range x from 1 to 6 step 1 | extend k = tostring(x % 2) | partition by k (project x | take 1) | count", rows: [[2]], columns: ["Count"] },
  ]);
});
