// Life at home: cooking for guests, a vegetable garden and a car repair, with quantities,
// temperatures, part numbers and the shops and people involved.
import { assistant, call, user, type LabelledConversation } from './labelled';

export const HOME: LabelledConversation[] = [
	{
		id: 'cooking-dinner-party',
		domain: 'cooking',
		turns: [
			user(
				`I'm cooking for [[number|8 people]] on [[number|Friday 7 November]]. Main course is a slow-roasted lamb shoulder, about [[number|2.4 kg]]. One guest, [[name|Marco]], is lactose intolerant, and [[instruction|nothing can contain nuts]] because of [[name|Ines]]'s allergy.`
			),
			assistant(
				`A [[number|2.4 kg]] shoulder feeds [[number|8]] comfortably. Roast it at [[number|160 °C]] fan for about [[number|4 hours]], covered, then uncovered at [[number|200 °C]] for the last [[number|20 minutes]]. For [[name|Marco]], use olive oil instead of butter in the sides; for [[name|Ines]], avoid pesto, dukkah and frangipane, and check labels for "may contain nuts".`
			),
			user(
				`Good. For dessert I was thinking of [[name|Ottolenghi]]'s lemon polenta cake from [[name|Sweet]], page [[number|212]]. It uses ground almonds though.`
			),
			assistant(
				`Ground almonds rule it out for [[name|Ines]]. You can replace the [[number|200 g]] of almonds with [[number|150 g]] of fine polenta plus [[number|50 g]] of plain flour, and the butter with a neutral oil at about [[number|80%]] of the weight, so [[number|160 g]] of oil for [[number|200 g]] of butter, which also suits [[name|Marco]].`
			),
			user(
				`Great. [[instruction|Always give me oven temperatures in Celsius, fan]], my oven is a [[name|Bosch Serie 6]]. Guests arrive at [[number|19:30]], so when does the lamb go in?`
			),
			assistant(
				`For dinner at about [[number|20:15]], the lamb goes in at [[number|16:00]] at [[number|160 °C]] fan, comes uncovered at [[number|19:50]] at [[number|200 °C]] fan, and rests from [[number|20:10]]. Bake the cake in the morning: [[number|160 °C]] fan for [[number|50 minutes]] in a [[number|23 cm]] tin.`
			)
		]
	},
	{
		id: 'garden-raised-beds',
		domain: 'gardening',
		turns: [
			user(
				`I'm building [[number|3 raised beds]], each [[number|2.4 m by 1.2 m]], [[number|40 cm]] deep, in my back garden in [[name|Leeds]]. How much soil do I need, and what should I plant for spring?`
			),
			assistant(
				`Each bed holds [[number|2.4 × 1.2 × 0.4 = 1.15 m³]], so about [[number|3.5 m³]] for the three. A common mix is [[number|60%]] topsoil and [[number|40%]] compost. For [[name|Leeds]], sow broad beans, peas, spinach and radishes outdoors from [[number|late March]], and start tomatoes indoors in [[number|early March]].`
			),
			user(
				`My soil supplier is [[name|Greenway Landscapes]], they quoted [[number|£58 per m³]] for the mix with delivery on [[number|15 March]]. [[instruction|Don't suggest anything treated with pesticides]], we keep bees. My neighbour [[name|Gwen]] has the hives.`
			),
			call(
				'calculator',
				{ expression: '3.5 * 58' },
				`203`
			),
			assistant(
				`[[number|3.5 m³]] at [[number|£58]] comes to [[number|£203]] delivered. No pesticides, and good for [[name|Gwen]]'s bees: plant borage, phacelia and calendula along the edges; they also draw pollinators to the beans. Slug control without chemicals: copper tape on the bed edges and beer traps.`
			),
			user(
				`Lovely. Bed 1 beans and peas, bed 2 tomatoes and basil, bed 3 salads and radishes. [[instruction|Remind me to rotate them next year]], I always forget.`
			),
			assistant(
				`Plan recorded: bed 1 legumes, bed 2 tomatoes with basil, bed 3 salads and radishes. Next year move each group one bed along (1 → 2 → 3 → 1) so the tomatoes follow the nitrogen the beans leave.`
			)
		]
	},
	{
		id: 'car-brake-repair',
		domain: 'car repair',
		turns: [
			user(
				`My [[number|2017]] [[name|Volkswagen Golf]] [[number|1.4 TSI]] makes a grinding noise when braking. It has [[number|96,000 km]] on it. The garage, [[name|Autohaus Keller]], quoted [[number|€640]] for front discs and pads.`
			),
			assistant(
				`Grinding usually means the pads are worn to the backing plate, so the discs are likely scored too; replacing both at the front is the right repair. [[number|€640]] is on the high side for a [[name|Golf]] front axle: parts are about [[number|€150–220]] and labour about [[number|1.5 hours]].`
			),
			user(
				`The quote lists [[name|ATE]] discs part number [[number|24.0125-0184.1]] and [[name|Textar]] pads [[number|2469101]]. Labour is [[number|2.2 hours]] at [[number|€118 an hour]]. [[instruction|I must have the car back by Wednesday]], I commute [[number|80 km]] a day.`
			),
			assistant(
				`[[number|2.2 hours]] at [[number|€118]] is [[number|€259.60]] in labour, about [[number|0.7 hours]] more than the usual time for front discs and pads; ask whether it includes a brake fluid change, which is due every [[number|2 years]] on the Golf. The parts they quote are good quality; together they cost around [[number|€190]] online, so the parts markup is high too.`
			),
			user(
				`[[instruction|Ask them for an itemised quote then]]. The service advisor is [[name|Frank Huber]], [[email|service@autohaus-keller.de]]. [[instruction|Don't accept a loan car with a fee]].`
			),
			assistant(
				`I'll draft the email to [[name|Frank Huber]] asking for an itemised quote with the parts ([[number|24.0125-0184.1]], [[number|2469101]]) and labour listed apart, whether [[number|2.2 hours]] includes the brake fluid, a free loan car, and the car back by Wednesday.`
			)
		]
	}
];
