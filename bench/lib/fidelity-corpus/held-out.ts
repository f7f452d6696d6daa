// Written after the extractor's patterns were fitted to the other conversations, and never used
// to change them: a home network, a tenancy dispute and a conference talk. Their figures, printed
// apart, show how the extractor does on conversations it was not tuned on.
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
	}
];
