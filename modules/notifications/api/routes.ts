import "server-only";
/**
 * The `/api/` work of the notification centre (docs/api.md, "Notifications"): every signed-in
 * user reads and marks only their own. The bell polls the summary, revalidated by ETag (304 while
 * nothing changed), so an idle tab costs one conditional request per poll.
 */
import { getDashboardDb } from "@/lib/dashboard-store/database";
import { conditionalGet } from "@/lib/platform/http/conditional";
import { parseWith, readJsonBody } from "@/lib/platform/http/body";
import { json } from "@/lib/platform/http/respond";
import type { ApiContext } from "@/lib/api-handler/handler";
import { ZMarkRead, ZNotificationPrefs, ZNotificationQuery } from "@/modules/notifications/contract/notifications";
import { getKinds, listNotifications, markRead, notificationSummary, setKinds } from "@/modules/notifications/store/notifications";

export const notificationHandlers = {
  async list(context: ApiContext) {
    const query = parseWith(ZNotificationQuery, Object.fromEntries(context.req.query), "query parameters");
    const db = await getDashboardDb();
    const [data, summary] = await Promise.all([listNotifications(db, context.user.email, query.show === "unread"), notificationSummary(db, context.user.email)]);
    return conditionalGet(context.req, json({ unread: summary.unread, data }));
  },

  async summary(context: ApiContext) {
    return conditionalGet(context.req, json(await notificationSummary(await getDashboardDb(), context.user.email)));
  },

  async markRead(context: ApiContext) {
    const body = parseWith(ZMarkRead, readJsonBody(context.req), "mark read");
    const db = await getDashboardDb();
    const changed = await markRead(db, context.user.email, body.all ? "all" : body.ids!, Date.now());
    return json({ changed, ...(await notificationSummary(db, context.user.email)) });
  },

  async getPrefs(context: ApiContext) {
    return json({ kinds: await getKinds(await getDashboardDb(), context.user.email) });
  },

  async replacePrefs(context: ApiContext) {
    const prefs = parseWith(ZNotificationPrefs, readJsonBody(context.req), "notification preferences");
    await setKinds(await getDashboardDb(), context.user.email, prefs.kinds);
    return json({ kinds: [...new Set(prefs.kinds)] });
  },
};
