// Money: a tax return, a mortgage and a freelancer's unpaid invoices, with the amounts,
// deadlines, accounts and people they concern.
import { assistant, call, user, type LabelledConversation } from './labelled';

export const FINANCE: LabelledConversation[] = [
	{
		id: 'finance-tax-return',
		domain: 'personal taxes',
		turns: [
			user(
				`I need to file my [[number|2024]] [[name|US]] tax return. I'm single, live in [[name|Colorado]], [[identifier|W-2]] income of [[number|$96,400]] from [[name|Ridgeline Analytics]], plus [[number|$7,250]] of freelance income on a [[identifier|1099-NEC]]. I contributed [[number|$6,000]] to a traditional [[name|IRA]].`
			),
			assistant(
				`A few points for [[number|2024]]:
- The freelance income goes on [[identifier|Schedule C]]; after expenses, self-employment tax of [[number|15.3%]] applies to [[number|92.35%]] of the net profit ([[identifier|Schedule SE]]).
- The traditional IRA contribution is deductible only in part if you had a workplace plan: for a single filer covered at work, the deduction phases out between [[number|$77,000]] and [[number|$87,000]] of modified AGI in [[number|2024]]. Were you covered by a [[name|401(k)]] at [[name|Ridgeline]]?`
			),
			user(
				`Yes, I have a 401(k) there. So the IRA deduction is gone? Then I'd like to do a backdoor [[name|Roth]] conversion instead. My brokerage is [[name|Fidelity]]. [[instruction|Don't suggest any crypto-related strategies]].`
			),
			assistant(
				`With a modified AGI above [[number|$87,000]], yes, none of the [[number|$6,000]] is deductible. A backdoor Roth works: the contribution stays non-deductible (report it on [[identifier|Form 8606]]), then convert it to a [[name|Roth IRA]] at [[name|Fidelity]]. If the IRA grew before conversion, the growth is taxable. Do you have any other pre-tax IRA balances? They would make part of the conversion taxable under the pro-rata rule.`
			),
			user(
				`No other [[name|IRAs]]. The filing deadline is [[number|April 15, 2025]], right? My accountant [[name|Deborah Kline]] will file it, her email is [[email|dkline@klinecpa.com]]. [[instruction|Send her only the totals, never my full account numbers]].`
			),
			assistant(
				`Yes, [[number|April 15, 2025]] for federal, and [[name|Colorado]] follows the same date. For [[name|Deborah Kline]] I'll prepare a one-page list of totals: W-2 wages [[number|$96,400]], freelance income [[number|$7,250]] with expenses, the [[number|$6,000]] non-deductible IRA contribution and its conversion for [[identifier|Form 8606]], with no account numbers.`
			)
		]
	},
	{
		id: 'finance-mortgage-choice',
		domain: 'mortgage',
		turns: [
			user(
				`We're buying a flat in [[name|Manchester]] for [[number|£285,000]] with a deposit of [[number|£42,750]], that's [[number|15%]]. Our broker [[name|Alisha Patel]] from [[name|Keystone Mortgages]] offered two deals: a [[number|2-year]] fix at [[number|4.49%]] with a [[number|£999]] fee, or a [[number|5-year]] fix at [[number|4.19%]] with no fee. Term [[number|30 years]].`
			),
			call(
				'mortgage_calculator',
				{ loan: 242250, term_years: 30, rates: [4.49, 4.19] },
				`2-year fix at 4.49%: monthly [[number|£1,226.07]], interest in first [[number|24 months]] [[number|£21,398]]
5-year fix at 4.19%: monthly [[number|£1,183.35]], interest in first [[number|60 months]] [[number|£48,730]]`
			),
			assistant(
				`On a loan of [[number|£242,250]] over [[number|30 years]]: the [[number|2-year]] fix costs [[number|£1,226.07 a month]], the [[number|5-year]] fix [[number|£1,183.35 a month]], [[number|£42.72]] less. Over the first [[number|2 years]] the [[number|5-year]] deal also saves the [[number|£999]] fee, so it's cheaper unless rates fall a lot before [[number|2027]] and you remortgage then.`
			),
			user(
				`Our priority is certainty, we have a baby due in [[number|August]]. [[instruction|Never suggest an interest-only mortgage]]. Can we overpay on the [[number|5-year]] deal?`
			),
			assistant(
				`Most lenders allow overpayments of up to [[number|10%]] of the balance each year without an early repayment charge; ask [[name|Alisha Patel]] to confirm it for this product. On [[number|£242,250]] that's up to [[number|£24,225]] a year. The [[number|5-year]] fix at [[number|4.19%]] fits your priority of certainty.`
			),
			user(
				`Great, we'll go with the [[number|5-year]] fix. Our solicitor is [[name|Hargreaves & Lowe]], the completion date they're aiming for is [[number|27 June]]. [[instruction|Keep all correspondence in the shared folder]] [[path|Home/Flat purchase/Mortgage]].`
			)
		]
	},
	{
		id: 'finance-freelance-invoices',
		domain: 'small business invoicing',
		turns: [
			user(
				`I'm a freelance illustrator and two clients haven't paid. [[name|Bramble Books]] owes [[number|€3,400]] on invoice [[number|INV-2025-017]], due [[number|14 February]]. [[name|Studio Kiln]] owes [[number|€1,150]] on [[number|INV-2025-021]], due [[number|28 February]]. It's now [[number|2 April]].`
			),
			assistant(
				`Both are overdue: [[number|INV-2025-017]] by about [[number|7 weeks]] and [[number|INV-2025-021]] by about [[number|5 weeks]]. Under the [[name|EU]] late payment rules as applied in most member states, you can charge statutory interest (the [[name|ECB]] reference rate plus [[number|8 percentage points]]) and a flat [[number|€40]] compensation per invoice. Where are you based?`
			),
			user(
				`In [[name|Ghent]], [[name|Belgium]]. My contact at [[name|Bramble Books]] is [[name|Nadia Verbeke]], [[email|nadia@bramblebooks.be]]. I'd like to stay on good terms with them, they're my biggest client. [[instruction|Keep the first reminder friendly and don't threaten legal action]].`
			),
			assistant(
				`Then a friendly reminder to [[name|Nadia Verbeke]] first: the invoice number [[number|INV-2025-017]], amount [[number|€3,400]], original due date [[number|14 February]], a copy attached, and a request to confirm a payment date within [[number|7 days]]. Mention interest only if it's still unpaid after that. For [[name|Studio Kiln]], a firmer note is fine if you don't depend on them.`
			),
			user(
				`[[instruction|Yes, firmer with [[name|Studio Kiln]]]], their accounts address is [[email|finance@studiokiln.com]]. My bank details for the reminders: [[name|KBC]], IBAN [[identifier|BE71 0961 2345 6769]]. [[instruction|Always put the IBAN at the bottom of the email, never in the subject]].`
			),
			assistant(
				`I'll write both reminders with the IBAN [[identifier|BE71 0961 2345 6769]] at the bottom. For [[name|Studio Kiln]] I'll add the [[number|€40]] compensation and state that interest runs from [[number|28 February]], with a payment deadline of [[number|16 April]].`
			)
		]
	}
];
