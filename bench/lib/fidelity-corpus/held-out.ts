// Written after the extractor's patterns were fitted to the other conversations: a home network,
// a tenancy dispute and a conference talk, then three more (see below). Their figures, printed
// apart, showed how the extractor did on conversations it was not tuned on (recall 96.6%); their
// misses have since been used to add general rules, so they no longer measure that, and new
// conversations written after those rules are needed to measure it again.
import { assistant, call, user, type LabelledConversation } from './labelled';

export const HELD_OUT: LabelledConversation[] = [
	{
		id: 'home-network-setup',
		domain: 'home network',
		turns: [
			user(
				`Our Wi-Fi drops every evening around [[number|9 pm]]. The router is a [[name|FRITZ!Box 7590]] from [[name|Vodafone]], firmware [[number|7.57]], and the house has three floors. My son [[name|Leo]] games on a [[name|PlayStation 5]] in the attic and complains the most.`
			),
			assistant(
				`Evening drops often come from interference, when neighbours' networks are busiest, or from the router's automatic channel change. Can you see which channel the [[number|5 GHz]] band uses and whether the [[number|2.4 GHz]] band is on channel [[number|1]], [[number|6]] or [[number|11]]?`
			),
			call(
				'router_status',
				{ host: 'fritz.box' },
				`WLAN 2.4 GHz: [[number|channel 11]], [[number|19 networks]] in range
WLAN 5 GHz: [[number|channel 36]], [[number|4 networks]] in range, DFS off
Connected devices: [[number|23]]
Uptime: [[number|2 days 4 hours]]
Event log: [[number|21:02]] WLAN 5 GHz channel changed to [[number|100]] (radar detected)`
			),
			assistant(
				`The log shows it: at [[number|21:02]] the [[number|5 GHz]] radio saw radar and moved from channel [[number|36]] to channel [[number|100]], a DFS channel; every device on [[number|5 GHz]] drops for about a minute while that happens. With [[number|19 networks]] on [[number|2.4 GHz]] that band is crowded too. I'd fix the [[number|5 GHz]] band to channel [[number|36]] and leave out the DFS channels.`
			),
			user(
				`[[instruction|Do that]]. The router's admin page is [[url|http://192.168.178.1]]. [[instruction|Don't change the guest network, my mother uses it when she visits]]. Also, would a mesh repeater help the attic?`
			),
			assistant(
				`Yes: a [[name|FRITZ!Repeater 3000 AX]] on the second floor, linked to the router by cable if you can, gives the attic its own strong signal. Set it up with the WPS button, then give [[name|Leo]]'s console a fixed address such as [[url|192.168.178.50]] so you can check it in the device list.`
			),
			user(`Sounds good. [[instruction|Always keep the firmware updates on automatic]], I never remember to do them.`)
		]
	},
	{
		id: 'tenancy-deposit-dispute',
		domain: 'tenancy dispute',
		turns: [
			user(
				`I moved out of my flat in [[name|Bristol]] on [[number|30 April]] and the landlord, [[name|Mr. Geoffrey Pike]], is keeping [[number|£650]] of my [[number|£1,400]] deposit for "cleaning and a damaged carpet". The deposit is protected with the [[name|Deposit Protection Service]], reference [[number|DPS-4471-2290]].`
			),
			assistant(
				`With the deposit in the [[name|Deposit Protection Service]] you can use its free dispute resolution. The landlord has to show the damage goes beyond fair wear and tear, usually with the check-in and check-out inventories. Do you have the check-in inventory and photos from the day you moved out?`
			),
			user(
				`I have the inventory from [[number|March 2022]] and [[number|43 photos]] from moving day. The carpet was already worn in [[number|2022]], the inventory says "light wear in hallway". [[instruction|Keep the tone factual, no insults]], I might need a reference from him later.`
			),
			assistant(
				`Good evidence. The carpet was [[number|3 years]] older by your move-out and already marked as worn, so a full replacement charge is unlikely to stand. I'd propose a first message to [[name|Mr. Pike]]: you dispute [[number|£650]], you accept a reasonable cleaning cost if he shows receipts, and you'll open a dispute with the [[name|DPS]] if the rest isn't returned within [[number|14 days]].`
			),
			user(
				`His email is [[email|g.pike.lettings@outlook.com]]. [[instruction|Mention the inventory line word for word]]. And [[instruction|send me the draft first, never send anything directly]].`
			),
			assistant(
				`I'll draft it for you to review: it quotes the inventory ("light wear in hallway"), lists the [[number|43 photos]] as attached, disputes the [[number|£650]], and sets [[number|14 days]] for a reply before you raise it with the [[name|DPS]] under reference [[number|DPS-4471-2290]].`
			)
		]
	},
	{
		id: 'conference-talk',
		domain: 'conference talk',
		turns: [
			user(
				`My talk "[[name|Local-First Apps Without the Pain]]" got accepted at [[name|JSConf EU]] in [[name|Berlin]], [[number|June 5]], a [[number|25-minute]] slot. Slides are in [[path|talks/jsconf/slides.key]] and the demo repo is [[url|https://github.com/mkowalski/localfirst-demo]].`
			),
			assistant(
				`Congratulations. [[number|25 minutes]] holds about [[number|18 minutes]] of talk, a [[number|4-minute]] demo and a few minutes of buffer. What's the one thing you want people to leave with?`
			),
			user(
				`That sync conflicts are a product question, not just a technical one. The demo uses [[name|Automerge]] and [[name|IndexedDB]]. [[instruction|The demo must run offline]], the venue Wi-Fi is never reliable. My co-speaker [[name|Aiyana Brooks]] does the last [[number|5 minutes]].`
			),
			assistant(
				`Then structure it as: the problem ([[number|4 min]]), three conflict stories from real apps ([[number|7 min]]), the demo ([[number|4 min]], fully offline, served from [[url|localhost:5173]] with the service worker already installed), and [[name|Aiyana]]'s part ([[number|5 min]]), leaving [[number|5 minutes]] for questions. Record a backup video of the demo in case the laptop fails.`
			),
			user(
				`Good plan. [[instruction|Keep every slide under [[number|20 words]]]]. The organisers want the final slides by [[number|May 28]] at [[email|speakers@jsconf.eu]], as PDF.`
			),
			assistant(
				`I'll check each slide against the [[number|20-word]] limit and export [[path|slides.pdf]] to send to [[email|speakers@jsconf.eu]] before [[number|May 28]].`
			)
		]
	},
	// Written later still, before the rules for lower-case medicines and libraries, products with a
	// model number, numbers with what they measure and instructions without a marker word, and
	// never used to change those rules: a father's medicines, a churn model and a laptop purchase.
	{
		id: 'medication-review',
		domain: 'medication review',
		turns: [
			user(
				`My father [[name|Henrik]] is [[number|81]] and has taken a lot of pills since his [[name|stroke]] in [[number|2022]]. His cardiologist, [[name|Dr. Paula Serrano]] at [[name|St. Olav's Hospital]], wants a list before the review on [[number|October 14]]. Right now: [[name|apixaban]] [[number|5 mg]] twice a day, [[name|bisoprolol]] [[number|2.5 mg]] in the morning, [[name|ramipril]] [[number|10 mg]], [[name|omeprazole]] [[number|20 mg]] and [[name|levothyroxine]] [[number|75 mcg]] before breakfast.`
			),
			assistant(
				`Thanks. [[name|Apixaban]] is an anticoagulant, so any new painkiller matters: [[name|ibuprofen]] and [[name|naproxen]] raise the bleeding risk with it, while [[name|paracetamol]] up to [[number|3 g a day]] is usually the safer choice at his age. Does he have other conditions, such as kidney problems, that the cardiologist should see?`
			),
			user(
				`He has [[name|atrial fibrillation]], [[name|hypothyroidism]] and mild [[name|osteoarthritis]] in both knees. His last [[name|eGFR]] was [[number|52]] in [[number|August]]. He had [[name|bronchitis]] twice last winter and got [[name|amoxicillin]] both times, no reaction. [[instruction|One page max]], he reads it himself. [[instruction|Leave out the supplements]].`
			),
			assistant(
				`Here is a one-page list:
- [[name|Apixaban]] [[number|5 mg]] twice daily ([[name|atrial fibrillation]], after the [[number|2022]] stroke)
- [[name|Bisoprolol]] [[number|2.5 mg]] mornings
- [[name|Ramipril]] [[number|10 mg]] daily
- [[name|Omeprazole]] [[number|20 mg]] daily
- [[name|Levothyroxine]] [[number|75 mcg]] before breakfast ([[name|hypothyroidism]])
Kidney function: [[name|eGFR]] [[number|52]] ([[number|August]]), worth asking whether the [[name|apixaban]] dose still fits. Painkiller: [[name|paracetamol]], no [[name|ibuprofen]].`
			),
			user(
				`Good. His pharmacy is [[name|Apotek 1 Bakklandet]], they can send the list to [[email|serrano.cardio@stolav.no]] if I ask. The review is at [[number|09:30]] in [[number|room B212]]. [[instruction|Use a large font, at least [[number|14 pt]]]].`
			),
			assistant(
				`I'll set the list in [[number|14 pt]] with the review time, [[number|09:30]] in [[number|room B212]], at the top, and a line asking [[name|Apotek 1 Bakklandet]] to send it to [[email|serrano.cardio@stolav.no]].`
			)
		]
	},
	{
		id: 'churn-model',
		domain: 'machine learning',
		turns: [
			user(
				`I'm training a churn model on [[number|1.2 million customers]]. The data is in [[path|data/churn_2024.parquet]], I load it with [[identifier|polars]] and train with [[identifier|lightgbm]]. The validation AUC is [[number|0.81]].`
			),
			assistant(
				`[[number|0.81]] is a reasonable start. Two things usually help churn models: features over time windows (activity in the last [[number|7 days]] against the last [[number|30 days]]) and a validation split by time rather than at random, so the model is never tested on customers whose future it has seen. How do you split now?`
			),
			user(
				`A random [[number|80/20]] split with [[identifier|train_test_split]] from [[identifier|scikit-learn]], [[number|seed 42]]. [[instruction|Three new features at most]]. [[instruction|No deep learning]], the team can't maintain it. [[instruction|Don't touch the label definition]]: churn means no login for [[number|60 days]].`
			),
			call(
				'run_cv',
				{ split: 'signup_month', folds: 3 },
				`fold 1: AUC [[number|0.802]]
fold 2: AUC [[number|0.797]]
fold 3: AUC [[number|0.811]]
mean AUC: [[number|0.803]] (std [[number|0.006]])
[[identifier|best_iteration]]: [[number|412]]`
			),
			assistant(
				`Split by signup month, the mean AUC is [[number|0.803]], a little under the random split, as expected. I'd add [[identifier|days_since_last_login]], [[identifier|sessions_7d]] and [[identifier|support_tickets_90d]], and stop early with [[identifier|lgb.early_stopping]] after [[number|50 rounds]]. The callback needs a recent version: [[identifier|pip install --upgrade lightgbm]].`
			),
			user(
				`OK. [[instruction|Results go to [[path|reports/churn_v3.md]]]], and my lead [[name|Tomasz Nowak]] reviews them on [[number|Friday]].`
			),
			assistant(
				`I'll write the three features, the time-based split and the [[number|0.803]] baseline into [[path|reports/churn_v3.md]] for [[name|Tomasz]] to review on [[number|Friday]].`
			)
		]
	},
	{
		id: 'laptop-purchase',
		domain: 'shopping',
		turns: [
			user(
				`I need a laptop for my daughter [[name|Mira]], who starts architecture at [[name|TU Delft]] in [[number|September]]. Budget is [[number|€1,600]]. She'll use [[name|Rhino 8]] and [[name|AutoCAD]], and the faculty asks for at least [[number|16 GB]] of RAM and a dedicated graphics card.`
			),
			assistant(
				`For [[name|Rhino]] and [[name|AutoCAD]] a mid-range card is enough. Three candidates within [[number|€1,600]]:
1. [[name|Lenovo Legion Slim 5]] — [[number|€1,449]], [[name|RTX 4060]], [[number|16 GB]], [[number|2.1 kg]], [[number|4.5 rating]]
2. [[name|ASUS Zenbook Pro 14]] — [[number|€1,599]], [[name|RTX 4050]], [[number|32 GB]], [[number|1.6 kg]], [[number|4.3 rating]]
3. [[name|MacBook Air M3]] — [[number|€1,399]], no dedicated card; [[name|Rhino 8]] runs natively, but [[name|AutoCAD]] for Mac lacks some tools.`
			),
			user(
				`[[instruction|Nothing over [[number|2 kg]]]], she cycles to campus. The Zenbook has a [[number|15% discount]] at [[name|Coolblue]] until [[number|Sunday]]. [[instruction|Two options max in the final answer]].`
			),
			assistant(
				`Then the [[name|Legion Slim 5]] at [[number|2.1 kg]] is out. With the [[number|15% discount]] the [[name|Zenbook Pro 14]] costs about [[number|€1,359]], well under budget, and at [[number|1.6 kg]] it is light enough for cycling. Second option: the [[name|MacBook Air M3]] with [[number|16 GB]] at [[number|€1,399]], if she can do without the tools AutoCAD for Mac lacks. A [[number|3-year]] warranty costs about [[number|€129]] more.`
			),
			user(`[[instruction|Compare the two warranties first]]. And [[instruction|check whether [[name|Coolblue]] delivers by [[number|August 30]]]].`)
		]
	}
];
