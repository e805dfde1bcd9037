/** The maintenance domain's migrations, in order: the service's database and the seed's scratch copy apply the same list. */
import maintenance from "./001-maintenance";
import demoState from "./005-demo-state";
import taskTransitionActors from "./007-task-transition-actors";
import workRecords from "./010-work-records";
import maintenancePlans from "./034-maintenance-plans";
import taskAttachments from "./045-task-attachments";

export const MAINTENANCE_MIGRATIONS = [maintenance, demoState, taskTransitionActors, workRecords, maintenancePlans, taskAttachments];
