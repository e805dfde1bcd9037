"use client";
/**
 * One dashboard: its panels over the board's range, refreshed at its interval, with the board's
 * variables as controls. The view (range, refresh, each variable's value) is in the URL, so a link
 * opens the same view; `edit=1` opens the editor for those who may change the board. Edits gather
 * in a draft drawn live on the board and are saved at once, with the version they started from: if
 * someone saved in between, the server refuses, the draft stays, and the page says what happened.
 */
import { useMutation, useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { Suspense, useEffect, useMemo, useState } from "react";
import { Button, ButtonLink } from "@/components/ui/button";
import { Card, CardBody, CardHeader } from "@/components/ui/card";
import { cn } from "@/components/ui/cn";
import { Field, Input, Select } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page-header";
import { PageSkeleton } from "@/components/ui/skeleton";
import { ErrorState } from "@/components/ui/states";
import { plantPath } from "@/components/shell/nav-items";
import { useTelemetryCatalogue } from "@/components/telemetry/catalogue";
import { useTimeMode } from "@/components/telemetry/time-preference";
import { ApiError, errorMessage } from "@/lib/client/api";
import { dashboardKeys, dashboardsApi, useDashboard } from "@/modules/boards/client/boards";
import { useFormat } from "@/lib/client/format";
import { useCan, useMe } from "@/lib/client/me";
import { useUrlState } from "@/lib/client/url-state";
import { BOARD_RANGES, BOARD_RANGE_LABEL, BOARD_REFRESH, BOARD_REFRESH_LABEL, type TBoardRange, type TBoardRefresh } from "@/lib/contract/dashboard-vocabulary";
import type { TDashboard, TDashboardDefinition, TDashboardPanel } from "@/modules/boards/contract/boards";
import { unitLabel } from "@/components/telemetry/units";
import { optionsOf, panelQuery, panelUnit, parseBoardView, varParam, type BoardView, type VariableOptions } from "./board-state";
import { BoardSettings } from "./board-settings";
import { BoardPlacement } from "./board-placement";
import { sharingSentence } from "./sharing";
import { PanelEditor } from "./panel-editor";
import { PanelLoading, PanelView, preloadCharts, type EarlyPanelAnswer } from "./panel-view";

const RANGE_OPTIONS = BOARD_RANGES.map((value) => ({ value, label: BOARD_RANGE_LABEL[value] }));
const CHOICES_DELAY_MS = 1500;
const REFRESH_OPTIONS = BOARD_REFRESH.map((value) => ({ value, label: BOARD_REFRESH_LABEL[value] }));

/**
 * `initial`: the board as the page was rendered with it (without it the board is asked for);
 * `early`: its panels' answers the server asked for meanwhile, by panel id.
 */
export function BoardPage({ plantId, dashboardId, initial, early }: { plantId: string; dashboardId: string; initial?: TDashboard; early?: Record<string, EarlyPanelAnswer> }) {
  const id = /^\d{1,15}$/.test(dashboardId) ? Number(dashboardId) : NaN;
  const board = useDashboard(plantId, id, initial);
  // The charts' code and the answers' schema load while the queries are on their way, not after them.
  useEffect(preloadCharts, []);
  if (!Number.isSafeInteger(id)) return <ErrorState error={new Error(`There is no dashboard "${dashboardId.slice(0, 40)}" at plant ${plantId}.`)} title="No such dashboard" />;
  if (board.error) return <ErrorState error={board.error} title="Could not open this dashboard" onRetry={() => void board.refetch()} />;
  if (board.isPending) return <PageSkeleton label="Loading the dashboard" />;
  return <Board plantId={plantId} board={board.data} early={early} />;
}

type PanelEdit = { index: number | null; panel: TDashboardPanel };

function Board({ plantId, board, early }: { plantId: string; board: TDashboard; early: Record<string, EarlyPanelAnswer> | undefined }) {
  const router = useRouter();
  const client = useQueryClient();
  const format = useFormat();
  const { timeZone } = useTimeMode();
  const { params, get, update } = useUrlState();
  // Its owner and admins change a board (the server says which, docs/boards.md); everyone else reads it.
  const canWrite = useCan("dashboards:write") && board.canEdit;
  const me = useMe();
  const editing = canWrite && get("edit") === "1";
  // The draft and the version it started from: a save names that version even when the board has
  // been refetched meanwhile, so someone else's save in between is refused, never overwritten.
  const [edit, setEdit] = useState<{ draft: TDashboardDefinition; base: number } | null>(null);
  const draft = edit?.draft ?? null;
  const [panelEdit, setPanelEdit] = useState<PanelEdit | null>(null);
  const [saveError, setSaveError] = useState<unknown>(null);
  const [confirmDelete, setConfirmDelete] = useState(false);
  const definition = editing && draft ? draft : board.definition;

  // The plant's devices and data points (one catalogue query) fill the variables' choices. A board
  // whose variables all have a value draws first and asks for them a moment later, so the panels do
  // not wait behind it for the user's two query places; opening a choice asks at once.
  const [choicesWanted, setChoicesWanted] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setChoicesWanted(true), CHOICES_DELAY_MS);
    return () => clearTimeout(timer);
  }, []);
  const preliminary = useMemo(() => parseBoardView(new URLSearchParams(params.toString()), definition, undefined), [params, definition]);
  const valueMissing = definition.variables.some((variable) => preliminary.values[variable.name] === undefined);
  const catalogue = useTelemetryCatalogue([plantId], definition.variables.some((variable) => variable.kind !== "text") && (valueMissing || choicesWanted));
  const options = useMemo<VariableOptions | undefined>(
    () => (catalogue.data ? { devices: [...catalogue.data.devices.keys()].sort(), dataPoints: catalogue.data.names } : undefined),
    [catalogue.data],
  );
  const view = useMemo(() => (options ? parseBoardView(new URLSearchParams(params.toString()), definition, options) : preliminary), [params, definition, options, preliminary]);

  const change = (next: TDashboardDefinition) => {
    setSaveError(null);
    setEdit({ draft: next, base: edit?.base ?? board.version });
  };
  const stopEditing = () => {
    setEdit(null);
    setPanelEdit(null);
    setSaveError(null);
    setConfirmDelete(false);
    update({ edit: null }, { keepPage: true });
  };
  const save = useMutation({
    mutationFn: (next: { draft: TDashboardDefinition; base: number }) => dashboardsApi.save(plantId, board.id, next.base, next.draft),
    onSuccess: (saved) => {
      client.setQueryData(dashboardKeys.one(plantId, board.id), saved);
      void client.invalidateQueries({ queryKey: dashboardKeys.all(plantId) });
      stopEditing();
    },
    onError: setSaveError,
  });
  const remove = useMutation({
    mutationFn: () => dashboardsApi.remove(plantId, board.id, board.version),
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: dashboardKeys.all(plantId) });
      router.push(plantPath(plantId, "dashboards"));
    },
    onError: setSaveError,
  });
  const conflict = saveError instanceof ApiError && saveError.code === "EDIT_CONFLICT";

  return (
    <div className="space-y-4">
      <PageHeader
        title={definition.title}
        description={
          <>
            {definition.description ? <span className="block wrap-anywhere">{definition.description}</span> : null}
            <span className="block">
              {sharingSentence(board.sharing, plantId, board.owner, me.data?.email === board.owner)} · version {format.number(board.version)}, changed {format.dateTime(board.updatedAt)} by{" "}
              {board.updatedBy}
            </span>
          </>
        }
        actions={
          <>
            <a className="inline-flex h-10 items-center rounded-md border border-line bg-surface px-4 text-sm font-medium hover:bg-surface-2" href={dashboardsApi.exportHref(plantId, board.id)} download>
              Export JSON
            </a>
            {canWrite && !editing ? (
              <ButtonLink href={`?${new URLSearchParams({ ...Object.fromEntries(params), edit: "1" })}`} variant="primary" scroll={false}>
                Edit dashboard
              </ButtonLink>
            ) : null}
          </>
        }
      />

      {editing ? (
        <Card className="border-accent">
          <CardHeader
            title="Editing"
            description={draft ? "Your changes are drawn on the board below; nobody else sees them until you save." : "Change the board's settings, variables and panels; then save."}
            actions={
              <>
                <Button variant="primary" disabled={!draft || save.isPending} onClick={() => edit && save.mutate(edit)}>
                  {save.isPending ? "Saving…" : "Save dashboard"}
                </Button>
                <Button onClick={stopEditing}>{draft ? "Discard changes" : "Done"}</Button>
              </>
            }
          />
          <CardBody className="space-y-4">
            {saveError ? (
              <div role="alert" className="rounded-md border border-danger bg-danger-soft p-3 text-sm">
                <p className="font-medium text-danger">{conflict ? "Not saved: someone else saved this dashboard first." : "Not saved."}</p>
                <p className="mt-1 wrap-anywhere">{errorMessage(saveError)}</p>
                {conflict ? (
                  <p className="mt-2 flex flex-wrap gap-2">
                    <Button
                      size="sm"
                      onClick={() => {
                        setEdit(null);
                        setSaveError(null);
                        void client.invalidateQueries({ queryKey: dashboardKeys.one(plantId, board.id) });
                      }}
                    >
                      Load their version (drops your changes)
                    </Button>
                  </p>
                ) : null}
              </div>
            ) : null}
            <BoardPlacement plantId={plantId} board={board} />
            <BoardSettings definition={definition} onChange={change} />
            <div className="flex flex-wrap gap-2">
              <Button onClick={() => setPanelEdit({ index: null, panel: { id: "", title: "", query: "", chart: "line", unit: "", width: "half" } })}>Add panel</Button>
              {confirmDelete ? (
                <>
                  <Button variant="danger" onClick={() => remove.mutate()} disabled={remove.isPending}>
                    Delete for everyone
                  </Button>
                  <Button onClick={() => setConfirmDelete(false)}>Keep it</Button>
                </>
              ) : (
                <Button variant="danger" onClick={() => setConfirmDelete(true)}>
                  Delete dashboard
                </Button>
              )}
            </div>
            {panelEdit ? (
              <PanelEditor
                key={panelEdit.index ?? "new"}
                plantId={plantId}
                initial={panelEdit.panel}
                definition={definition}
                names={catalogue.data?.names}
                onCancel={() => setPanelEdit(null)}
                onApply={(panel) => {
                  const panels = [...definition.panels];
                  if (panelEdit.index === null) panels.push(panel);
                  else panels[panelEdit.index] = panel;
                  change({ ...definition, panels });
                  setPanelEdit(null);
                }}
              />
            ) : null}
          </CardBody>
        </Card>
      ) : null}

      <Toolbar
        view={view}
        definition={definition}
        options={options}
        catalogueError={catalogue.error}
        onWantChoices={() => setChoicesWanted(true)}
        onChange={(changes) => update(changes, { keepPage: true, replace: true })}
      />

      {definition.panels.length === 0 ? (
        <Card className="p-6 text-center text-sm text-fg-muted">{editing ? "No panels yet: add one above." : canWrite ? "No panels yet: choose Edit dashboard to add one." : "This dashboard has no panels yet."}</Card>
      ) : (
        <div className="grid grid-cols-1 gap-4 xl:grid-cols-2" data-testid="board-panels">
          {definition.panels.map((panel, index) => (
            <PanelCard
              key={panel.id}
              plantId={plantId}
              panel={panel}
              definition={definition}
              view={view}
              units={catalogue.data?.units}
              timeZone={timeZone}
              early={early?.[panel.id]}
              editing={editing}
              onEdit={() => setPanelEdit({ index, panel })}
              onMove={(by) => {
                const panels = [...definition.panels];
                const [moved] = panels.splice(index, 1);
                panels.splice(Math.max(0, Math.min(panels.length, index + by)), 0, moved!);
                change({ ...definition, panels });
              }}
              onRemove={() => change({ ...definition, panels: definition.panels.filter((_, other) => other !== index) })}
            />
          ))}
        </div>
      )}
    </div>
  );
}

function Toolbar({
  view,
  definition,
  options,
  catalogueError,
  onWantChoices,
  onChange,
}: {
  view: BoardView;
  definition: TDashboardDefinition;
  options: VariableOptions | undefined;
  catalogueError: unknown;
  onWantChoices: () => void;
  onChange: (changes: Record<string, string | null>) => void;
}) {
  return (
    <Card as="div" className="p-3">
      <div className="flex flex-wrap items-end gap-3" role="group" aria-label="Time range, refresh and variables">
        <Field label="Time range" className="w-44">
          {(control) => <Select {...control} value={view.range} options={RANGE_OPTIONS} onChange={(event) => onChange({ range: event.target.value as TBoardRange })} />}
        </Field>
        <Field label="Refresh" className="w-44">
          {(control) => <Select {...control} value={view.refresh} options={REFRESH_OPTIONS} onChange={(event) => onChange({ refresh: event.target.value as TBoardRefresh })} />}
        </Field>
        {definition.variables.map((variable) => {
          const choices = optionsOf(variable, options);
          return (
            <Field key={variable.name} label={variable.label} className="w-52 max-w-full">
              {(control) =>
                choices === null ? (
                  <Input
                    {...control}
                    key={view.values[variable.name]}
                    defaultValue={view.values[variable.name] ?? ""}
                    maxLength={200}
                    onBlur={(event) => onChange({ [varParam(variable.name)]: event.target.value })}
                    onKeyDown={(event) => {
                      if (event.key === "Enter") onChange({ [varParam(variable.name)]: event.currentTarget.value });
                    }}
                  />
                ) : (
                  <Select
                    {...control}
                    value={view.values[variable.name] ?? ""}
                    disabled={!options && view.values[variable.name] === undefined}
                    onFocus={onWantChoices}
                    onPointerDown={onWantChoices}
                    options={selectOptions(choices, options !== undefined, view.values[variable.name])}
                    onChange={(event) => onChange({ [varParam(variable.name)]: event.target.value })}
                  />
                )
              }
            </Field>
          );
        })}
      </div>
      {catalogueError ? (
        <p role="alert" className="mt-2 text-sm text-danger">
          Could not load the plant&apos;s devices and data points: {errorMessage(catalogueError)}
        </p>
      ) : null}
    </Card>
  );
}

/** The plant's values, and the chosen one when the plant has not reported it lately (it stays chosen). */
function selectOptions(choices: readonly string[], known: boolean, chosen: string | undefined) {
  const list = choices.map((value) => ({ value, label: value }));
  if (chosen !== undefined && !choices.includes(chosen)) list.unshift({ value: chosen, label: known ? `${chosen} (no data in the last 24 hours)` : chosen });
  return list.length > 0 ? list : [{ value: "", label: known ? "None at this plant" : "Loading…" }];
}

function PanelCard({
  plantId,
  panel,
  definition,
  view,
  units,
  timeZone,
  early,
  editing,
  onEdit,
  onMove,
  onRemove,
}: {
  plantId: string;
  panel: TDashboardPanel;
  definition: TDashboardDefinition;
  view: BoardView;
  units: ReadonlyMap<string, string> | undefined;
  timeZone: string;
  early: EarlyPanelAnswer | undefined;
  editing: boolean;
  onEdit: () => void;
  onMove: (by: number) => void;
  onRemove: () => void;
}) {
  const titleId = `panel-${panel.id}-title`;
  const query = useMemo(() => panelQuery(panel, definition, view), [panel, definition, view]);
  const { unit, followed } = useMemo(() => panelUnit(panel, definition, view, units), [panel, definition, view, units]);
  const shown = useMemo(() => (unit === panel.unit ? panel : { ...panel, unit }), [panel, unit]);
  return (
    <Card as="article" aria-labelledby={titleId} className={cn("min-w-0", panel.width === "full" && "xl:col-span-2")}>
      <CardHeader
        id={titleId}
        title={panel.title}
        description={unit ? `in ${unitLabel(unit)}` : undefined}
        actions={
          editing ? (
            <>
              <Button size="sm" onClick={onEdit} aria-label={`Edit panel ${panel.title}`}>
                Edit
              </Button>
              <Button size="sm" variant="ghost" onClick={() => onMove(-1)} aria-label={`Move panel ${panel.title} earlier`}>
                ↑
              </Button>
              <Button size="sm" variant="ghost" onClick={() => onMove(1)} aria-label={`Move panel ${panel.title} later`}>
                ↓
              </Button>
              <Button size="sm" variant="danger" onClick={onRemove} aria-label={`Remove panel ${panel.title}`}>
                Remove
              </Button>
            </>
          ) : null
        }
      />
      <CardBody>
        <Suspense fallback={<PanelLoading title={panel.title} />}>
          <PanelView plantId={plantId} panel={shown} unitFollowed={followed} query={query} range={view.range} refresh={view.refresh} timeZone={timeZone} early={early} />
        </Suspense>
      </CardBody>
    </Card>
  );
}
