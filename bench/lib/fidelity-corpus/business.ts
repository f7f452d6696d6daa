// Work between companies and people: a contract negotiation, a hire and a software purchase,
// with the clauses, amounts and deadlines they turn on.
import { assistant, call, user, type LabelledConversation } from './labelled';

export const BUSINESS: LabelledConversation[] = [
	{
		id: 'contract-saas-reseller',
		domain: 'contract negotiation',
		turns: [
			user(
				`I'm negotiating a reseller agreement with [[name|Veridian Health Systems]]. They sent a draft, [[path|Veridian_Reseller_Agreement_v3.docx]]. I represent [[name|Halden Software AB]]. Their counsel is [[name|Margaret O'Neill]]. Can you help me with the key clauses?`
			),
			assistant(
				`Sure. For a reseller agreement the clauses that usually matter most are the discount and payment terms, exclusivity, the term and termination, liability caps, and who supports the end customers. What does the draft say on each?`
			),
			user(
				`They want a [[number|35% discount]] off list price, payment at [[number|net 90]], and exclusivity for the [[name|Nordics]] for [[number|3 years]]. Liability is capped at [[number|12 months of fees]] in [[number|clause 14.2]]. [[instruction|We must not accept anything longer than net 45]], our board was clear on that.`
			),
			assistant(
				`Some counter-proposals:
- Payment: offer [[number|net 45]], your limit, perhaps with a [[number|2%]] early-payment discount at [[number|net 15]] to make it attractive.
- Discount: [[number|35%]] is high for a reseller that also gets exclusivity. Tie it to volume: [[number|25%]] up to [[number|SEK 5 million]] a year, [[number|35%]] above.
- Exclusivity: make it conditional on a minimum of [[number|SEK 3 million]] in annual sales, reviewed each year, so you can end it if they don't perform.
- [[number|Clause 14.2]]: a cap at [[number|12 months of fees]] is common; check that it is mutual and that data protection breaches are carved out.`
			),
			user(
				`Good. [[instruction|Never agree to an exclusivity without a minimum volume]]. [[instruction|Also always keep [[name|Swedish]] law and the courts of [[name|Stockholm]] as governing law]], the draft says [[name|Delaware]]. The deadline for our reply is [[number|May 9]].`
			),
			assistant(
				`I'll draft the redline with: governing law [[name|Sweden]], venue [[name|Stockholm]] instead of [[name|Delaware]]; payment [[number|net 45]]; the tiered discount; exclusivity in the [[name|Nordics]] only with the [[number|SEK 3 million]] minimum; [[number|clause 14.2]] made mutual with a carve-out for data breaches. I'll have it ready well before [[number|May 9]].`
			),
			user(
				`[[instruction|Send the redline to [[email|m.oneill@veridianhealth.com]] and copy our lawyer [[name|Erik Lindqvist]], [[email|erik@lindqvist-legal.se]]]]. [[instruction|Don't include our internal notes on the board's limits]].`
			),
			assistant(
				`I'll prepare the email to [[name|Margaret O'Neill]] with [[name|Erik Lindqvist]] in copy, attaching the redline as [[path|Veridian_Reseller_Agreement_v4_Halden.docx]], and leave the internal notes out.`
			)
		]
	},
	{
		id: 'hiring-backend-engineer',
		domain: 'hiring',
		turns: [
			user(
				`I'm hiring a senior backend engineer for our team in [[name|Toronto]]. The salary band is [[number|CAD 145,000–170,000]]. We use [[name|Kotlin]] and [[name|Spring Boot]] on [[name|Kubernetes]]. Can you help me write the posting and plan the interviews?`
			),
			assistant(
				`Happy to. For the posting I'd keep it short: what the team builds, the stack ([[name|Kotlin]], [[name|Spring Boot]], [[name|Kubernetes]]), the band of [[number|CAD 145,000–170,000]] (required in postings in some provinces anyway), and how the interviews go. How many rounds do you want?`
			),
			user(
				`[[instruction|Four rounds max]]. [[instruction|The take-home must take less than [[number|3 hours]]]], we lost good people to long assignments. [[instruction|Always include the salary band in the posting]]. The hiring committee is me, [[name|Grace Liu]] and [[name|Owen Fitzgerald]].`
			),
			assistant(
				`Proposed loop, [[number|4 rounds]]:
1. A [[number|30-minute]] call with you: motivation, the role.
2. A take-home capped at [[number|2.5 hours]]: a small REST service in [[name|Kotlin]] with one failing integration test to fix.
3. A [[number|60-minute]] review of the take-home with [[name|Grace Liu]].
4. A [[number|45-minute]] system design conversation with [[name|Owen Fitzgerald]].
Each interviewer writes feedback within [[number|24 hours]], before seeing the others'.`
			),
			user(
				`Nice. We post on [[name|LinkedIn]] and on [[url|https://jobs.torontotech.ca]]. Applications go to [[email|careers@northpeak.io]]. [[instruction|The start date should be [[number|1 September]] at the latest]].`
			),
			call(
				'count_applications',
				{ posting: 'senior-backend' },
				`Applications received: [[number|87]]
Screened in: [[number|14]]
Take-home sent: [[number|6]]
Median time on take-home: [[number|2.1 hours]]`
			),
			assistant(
				`So far [[number|87 applications]], [[number|14]] screened in, [[number|6]] take-homes sent, and candidates spend a median of [[number|2.1 hours]] on it, under your [[number|3-hour]] limit. To start by [[number|1 September]] with a typical [[number|4-week]] notice period, you'd need an offer out by the [[number|end of July]].`
			)
		]
	},
	{
		id: 'purchase-crm-software',
		domain: 'software purchase',
		turns: [
			user(
				`We're a [[number|40-person]] sales team choosing a CRM. Shortlist: [[name|HubSpot Sales Hub Professional]], [[name|Pipedrive]] and [[name|Salesforce Sales Cloud]]. Budget is [[number|$60,000 per year]]. We need a two-way sync with [[name|Outlook]] and our billing tool [[name|Chargebee]].`
			),
			assistant(
				`At [[number|40 seats]], list prices roughly: [[name|HubSpot Sales Hub Professional]] about [[number|$100 per seat per month]] ([[number|$48,000]] a year, plus an onboarding fee), [[name|Pipedrive]] Professional about [[number|$64]] ([[number|$30,720]] a year), [[name|Salesforce Sales Cloud]] Enterprise about [[number|$165]] ([[number|$79,200]] a year, over budget before add-ons). All three sync with [[name|Outlook]]; [[name|Chargebee]] has native integrations with [[name|HubSpot]] and [[name|Salesforce]], and [[name|Pipedrive]] through [[name|Zapier]] or its marketplace app.`
			),
			user(
				`[[instruction|Drop [[name|Salesforce]] then]]. Our IT lead [[name|Rafael Souza]] says [[instruction|any tool must support SSO with [[name|Okta]] and [[name|SCIM]] provisioning]]. [[instruction|Don't consider anything that stores data outside the [[name|EU]]]].`
			),
			assistant(
				`Then check plan levels: [[name|HubSpot]] includes SSO in [[name|Professional]], but SCIM needs [[name|Enterprise]]; [[name|Pipedrive]] offers SSO on [[name|Power]] and Enterprise plans. Both offer EU data hosting: [[name|HubSpot]] in [[name|Frankfurt]], [[name|Pipedrive]] in the EU by default for EU accounts. With SCIM, [[name|HubSpot]] Enterprise at about [[number|$150 a seat]] comes to [[number|$72,000]], over budget, unless they discount.`
			),
			user(
				`Let's ask both for quotes. Contact at [[name|HubSpot]] is [[email|jwalters@hubspot.com]], at [[name|Pipedrive]] [[email|enterprise-sales@pipedrive.com]]. We need to decide by [[number|June 30]] because our current [[name|Zoho]] contract renews on [[number|July 15]].`
			),
			assistant(
				`I'll draft both requests: [[number|40 seats]], SSO with [[name|Okta]], SCIM, EU hosting, [[name|Outlook]] and [[name|Chargebee]] sync, a [[number|$60,000]] annual budget, and a decision by [[number|June 30]] ahead of the [[name|Zoho]] renewal on [[number|July 15]]. I'll copy [[name|Rafael Souza]] for the security questions.`
			)
		]
	}
];
