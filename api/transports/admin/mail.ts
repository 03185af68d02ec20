/** GET /admin/v1/mail?limit=n: the newest outgoing mails (the outbox; `npm run admin -- mail`). */
import { z } from "zod";
import { listOutbox } from "../../platform/mail/mailer";
import { adminJson, adminQuery, defineAdminRoutes } from "./define";

const query = z.strictObject({ limit: z.coerce.number().int().min(1).max(500).default(20) });

export const mailRoutes = defineAdminRoutes({
  name: "mail",
  mount(r, { ctx }) {
    r.get("/mail", async (c) => {
      const { limit } = adminQuery(c, query);
      return adminJson(c, { mails: await listOutbox(ctx.db, limit) });
    });
  },
});
