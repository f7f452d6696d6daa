// Software work: a debugging session, a code review, a production incident, a database
// migration and a release, with the tool results a coding assistant reads.
import { assistant, call, user, type LabelledConversation } from './labelled';

export const ENGINEERING: LabelledConversation[] = [
	{
		id: 'debug-login-timeouts',
		domain: 'debugging',
		turns: [
			user(
				`Our login endpoint started timing out after yesterday's deploy. Requests to [[path|/api/login]] hang for about [[number|30 seconds]] and then return a [[number|504]]. The handler is in [[path|src/server/auth.ts]] and the session store is [[name|Redis]] on [[number|port 6380]]. Can you help me find it?`
			),
			assistant(
				`Let's look at the handler first. A hang that ends at exactly [[number|30 s]] usually means something waits for a connection that never comes, and the gateway gives up.`
			),
			call(
				'read_file',
				{ path: 'src/server/auth.ts' },
				`import { createClient } from 'redis';
export async function [[identifier|handleLogin]](req, res) {
  const client = [[identifier|createClient]]({ url: process.env.[[identifier|SESSION_REDIS_URL]] });
  await client.connect();
  const user = await [[identifier|verifyPassword]](req.body.email, req.body.password);
  await client.set([[identifier|sessionKey]](user.id), JSON.stringify(user), { EX: 3600 });
  res.json({ ok: true });
}`
			),
			assistant(
				`Found a likely cause: [[identifier|handleLogin]] creates a new Redis client on every request and never calls [[identifier|quit()]]. After a few hundred logins the server runs out of connections ([[name|Redis]] defaults to [[number|maxclients 10000]], but your managed plan caps it lower) and [[identifier|client.connect()]] waits forever. The URL comes from [[identifier|SESSION_REDIS_URL]].`
			),
			user(
				`That makes sense, the plan is the [[name|Upstash]] free tier with a limit of [[number|100 connections]]. [[instruction|Don't change the session format, the mobile app reads it]]. Also [[instruction|never log the password or the session token]], even at debug level.`
			),
			assistant(
				`Understood. I'll move the client to a module-level singleton in [[path|src/server/redis-client.ts]], connect once at start-up, and keep the session value exactly as it is: the user object as JSON under [[identifier|sessionKey(user.id)]] with an expiry of [[number|3600 seconds]].`
			),
			call(
				'run_tests',
				{ pattern: 'auth' },
				`PASS [[path|tests/auth.test.ts]] ([[number|4 tests]])
PASS [[path|tests/session.test.ts]] ([[number|7 tests]])
Tests: [[number|11 passed]], 11 total
Time: [[number|3.42 s]]`,
				'Running the auth tests now.'
			),
			assistant(
				`All [[number|11 tests]] pass. I also added a test in [[path|tests/redis-client.test.ts]] that logs in [[number|200 times]] and checks that the connection count stays at one.`
			),
			user(
				`Great. [[name|Priya]] will review it, her address is [[email|priya.raman@northwind.dev]]. [[instruction|Always open the pull request against the [[identifier|release/2.8]] branch, not main]].`
			),
			assistant(
				`I'll open it against [[identifier|release/2.8]] and ask [[name|Priya Raman]] for review. I'll mention the [[number|100-connection]] cap of the [[name|Upstash]] plan in the description so the reason is recorded.`
			)
		]
	},
	{
		id: 'review-pagination',
		domain: 'code review',
		turns: [
			user(
				`Can you review my pull request [[number|#482]]? It adds cursor pagination to the orders list. The main change is in [[path|api/orders/list.go]] and the query lives in [[path|internal/store/orders.sql]].`
			),
			call(
				'fetch_diff',
				{ pr: 482 },
				`diff --git a/api/orders/list.go b/api/orders/list.go
+func [[identifier|ListOrders]](w http.ResponseWriter, r *http.Request) {
+	cursor := r.URL.Query().Get("after")
+	limit := [[identifier|parseLimit]](r.URL.Query().Get("limit"), 50)
+	orders, next, err := [[identifier|store.OrdersAfter]](r.Context(), cursor, limit)`
			),
			assistant(
				`Overall this is clean. A few points:
1. [[identifier|parseLimit]] accepts any value; a client can ask for [[number|limit=100000]]. I'd cap it at [[number|200]].
2. [[identifier|OrdersAfter]] sorts by [[identifier|created_at]] only. Two orders created in the same millisecond can be skipped or repeated across pages; sort by ([[identifier|created_at]], [[identifier|id]]) and encode both in the cursor.
3. The cursor is the raw timestamp. Encode it (base64 of the JSON) so clients treat it as opaque.`
			),
			user(
				`Good catches. [[instruction|The default of [[number|50 per page]] came from the product spec, keep it]]. [[instruction|We must stay compatible with the old offset parameter until [[number|version 3.0]]]] because the [[name|Android]] app still sends it.`
			),
			assistant(
				`Then [[identifier|ListOrders]] should read [[identifier|offset]] when no [[identifier|after]] cursor is given and log a deprecation warning. I'd add a test for each path in [[path|api/orders/list_test.go]].`
			),
			user(
				`Okay. One more thing: [[name|Tomás]] asked whether the index on [[identifier|orders]] covers this. The table has about [[number|42 million rows]].`
			),
			assistant(
				`The existing index [[identifier|idx_orders_created_at]] covers the old sort but not the tie-breaker. Add a composite index on ([[identifier|created_at]], [[identifier|id]]); on [[number|42 million rows]] create it with [[identifier|CREATE INDEX CONCURRENTLY]] so writes are not blocked. You can see the plan with [[identifier|EXPLAIN ANALYZE]] before and after.`
			),
			user(`Thanks, I'll push the changes tonight and ping [[name|Tomás Herrera]] for a second look.`)
		]
	},
	{
		id: 'incident-checkout-errors',
		domain: 'devops incident',
		turns: [
			user(
				`We have an incident. Checkout error rate jumped to [[number|18%]] at [[number|14:05 UTC]]. Dashboard: [[url|https://grafana.internal.shopfront.io/d/checkout-overview]]. The on-call is me and [[name|Dmitri Volkov]].`
			),
			assistant(
				`Let's narrow it down. What changed around [[number|14:05]]? A deploy, a config change, a dependency (payment provider, database)? And which status codes dominate?`
			),
			user(
				`Mostly [[number|502s]] from the [[identifier|payments-gateway]] service. We rolled out version [[number|4.12.0]] of it at [[number|13:58]]. It runs [[number|6 replicas]] on the [[identifier|prod-eu-west-1]] cluster.`
			),
			call(
				'kubectl',
				{ args: 'logs deploy/payments-gateway --since=15m' },
				`[[number|2025-06-11T14:04:51Z]] ERROR stripe client: dial tcp [[url|10.40.2.17:443]]: i/o timeout
[[number|2025-06-11T14:04:52Z]] ERROR stripe client: dial tcp 10.40.2.17:443: i/o timeout
[[number|2025-06-11T14:04:58Z]] WARN  circuit open for upstream "stripe" after [[number|5 failures]]`
			),
			assistant(
				`The gateway cannot reach [[name|Stripe]]: every call times out dialling out, and the circuit breaker opens after [[number|5 failures]]. Since [[number|4.12.0]] went out at [[number|13:58]], check whether it changed the egress settings or the proxy. Meanwhile, rolling back to [[number|4.11.3]] is the quickest mitigation.`
			),
			user(
				`Rolling back now. For the record: [[instruction|never roll forward during an incident without the incident commander's approval]]. The commander today is [[name|Aisha Bello]].`
			),
			assistant(
				`Noted: no roll-forward without [[name|Aisha Bello]]'s approval. Once [[number|4.11.3]] is live, watch the error rate for [[number|10 minutes]]; if it falls below the usual [[number|0.3%]], the regression is in [[number|4.12.0]].`
			),
			user(
				`Error rate back to [[number|0.2%]] at [[number|14:31]]. The diff shows the new version set [[identifier|HTTPS_PROXY]] to the old proxy host [[url|egress-proxy.legacy.shopfront.io]], which was decommissioned last week. [[instruction|Please write the postmortem to [[path|docs/postmortems/2025-06-11-checkout.md]]]].`
			),
			assistant(
				`I'll write it with the timeline ([[number|13:58]] deploy, [[number|14:05]] errors, [[number|14:31]] recovered: [[number|26 minutes]] of impact), the cause (the stale [[identifier|HTTPS_PROXY]] pointing at the decommissioned host), and an action to check egress in the staging smoke test. I'll send the draft to [[name|Aisha]] and [[name|Dmitri]].`
			)
		]
	},
	{
		id: 'migration-postgres-upgrade',
		domain: 'database migration',
		turns: [
			user(
				`We're upgrading our database from [[name|PostgreSQL]] [[number|12]] to [[number|16]] on [[name|AWS RDS]]. The instance is [[identifier|db-prod-main]], about [[number|1.8 TB]]. I want a plan with less than [[number|15 minutes]] of downtime.`
			),
			assistant(
				`With [[number|1.8 TB]] an in-place major version upgrade can take much longer than [[number|15 minutes]]. The usual way to stay under that is logical replication: create a new [[number|PostgreSQL 16]] instance, replicate into it, then switch the application over. Do you use extensions?`
			),
			user(
				`We use [[identifier|pg_trgm]], [[identifier|postgis]] and [[identifier|pg_stat_statements]]. The app connects through [[name|PgBouncer]] at [[url|pgbouncer.prod.internal]] on [[number|port 6432]]. [[instruction|Don't touch the reporting replica, the finance team queries it every morning]].`
			),
			assistant(
				`All three exist on [[number|16]]; [[identifier|postgis]] needs its own upgrade after the data is in ([[identifier|ALTER EXTENSION postgis UPDATE]]). Plan:
1. Create [[identifier|db-prod-main-16]] from a parameter group copied from the old one, with [[identifier|rds.logical_replication]] set to 1 on the old instance.
2. Copy the schema with [[identifier|pg_dump --schema-only]], create a publication on the old side and a subscription on the new.
3. Wait for the initial copy (likely [[number|8 to 12 hours]] for [[number|1.8 TB]]), then for lag under [[number|1 second]].
4. Cutover: pause [[name|PgBouncer]], wait for lag 0, reset sequences, point [[name|PgBouncer]] at the new host, resume.
The reporting replica stays as it is until you choose to rebuild it.`
			),
			user(
				`Sequences are a good point, we have [[number|37 tables]] with serial ids. The cutover window is [[number|Sunday 16 March at 02:00]] our time, [[name|Berlin]]. [[instruction|Always run the cutover script in dry-run mode first]].`
			),
			assistant(
				`I'll write [[path|scripts/cutover.sh]] with a [[identifier|--dry-run]] flag that prints every step, and a helper [[path|scripts/reset-sequences.sql]] that sets each of the [[number|37]] sequences to the max id of its table plus [[number|1000]] as a margin. At [[number|02:00]] in [[name|Berlin]] that's [[number|01:00 UTC]] in March.`
			),
			user(`[[instruction|Send the runbook to [[email|dba-team@kestrel-logistics.com]] when it's ready]].`)
		]
	},
	{
		id: 'release-mobile-app',
		domain: 'release engineering',
		turns: [
			user(
				`I need to ship version [[number|2.4.0]] of our [[name|iOS]] app by [[number|Thursday 24 April]]. The build pipeline is on [[name|GitHub Actions]], the workflow is [[path|.github/workflows/release.yml]], and it fails at the signing step.`
			),
			call(
				'read_log',
				{ run: 9183 },
				`Run [[identifier|fastlane match appstore --readonly]]
[[[number|14:22:07]]]: Cloning remote git repo...
[[[number|14:22:09]]]: Certificate '[[name|Apple Distribution]]: [[name|Lumen Labs GmbH]] ([[identifier|8KQ2J7X4TP]])' has expired
error: No matching provisioning profiles found for "[[identifier|com.lumenlabs.notes]]"`
			),
			assistant(
				`The distribution certificate of [[name|Lumen Labs GmbH]] (team [[identifier|8KQ2J7X4TP]]) has expired, so [[identifier|fastlane match]] finds no valid profile for [[identifier|com.lumenlabs.notes]]. Someone with the Admin role in [[name|App Store Connect]] must create a new certificate; then run [[identifier|fastlane match appstore]] without [[identifier|--readonly]] once to store it in the certificates repository.`
			),
			user(
				`[[name|Jonas Weber]] is our admin, I'll ask him. [[instruction|The CI must never run match without --readonly]], it could revoke the certificates of the other apps. We release to [[number|5% of users]] first.`
			),
			assistant(
				`Right: only [[name|Jonas]] runs it once from his machine; CI keeps [[identifier|--readonly]]. For the phased release, [[name|App Store Connect]]'s phased release goes [[number|1%]], [[number|2%]], [[number|5%]], [[number|10%]], [[number|20%]], [[number|50%]], [[number|100%]] over [[number|7 days]]; you can't start at [[number|5%]] exactly, but you can pause after [[number|day 3]].`
			),
			user(
				`Fine, we'll pause at day 3. [[instruction|Put the release notes in [[path|fastlane/metadata/en-US/release_notes.txt]]]]. The main feature is offline sync; the ticket is [[number|NOTES-1142]].`
			),
			assistant(
				`I'll draft the notes around offline sync ([[number|NOTES-1142]]) and add a checklist to the release issue: certificate renewed by [[name|Jonas Weber]], build [[number|2.4.0]] uploaded, phased release paused after day 3, submission before [[number|Thursday 24 April]].`
			)
		]
	}
];
