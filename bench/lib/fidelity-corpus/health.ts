// Health: a patient's history told to prepare a doctor's visit, recovery from a running injury
// and a dog's treatment, with medicines, doses, dates and the people caring for them.
import { assistant, call, user, type LabelledConversation } from './labelled';

export const HEALTH: LabelledConversation[] = [
	{
		id: 'medical-history-visit',
		domain: 'medical history',
		turns: [
			user(
				`I have a new GP appointment on [[number|March 18]] with [[name|Dr. Anjali Mehta]] at [[name|Riverside Medical Centre]] and I want to bring a clear summary of my history. Can you help me put it together?`
			),
			assistant(
				`Of course. A good summary covers current conditions, medicines with doses, allergies, past operations, family history and what you want from the visit. Let's start with your conditions and medicines.`
			),
			user(
				`I've had [[name|type 2 diabetes]] since [[number|2019]]. I take [[name|metformin]] [[number|500 mg]] twice a day and [[name|atorvastatin]] [[number|20 mg]] at night. My last [[name|HbA1c]] was [[number|7.4%]] in [[number|January 2025]]. I'm allergic to [[name|penicillin]], I got a rash and swelling in [[number|2011]].`
			),
			assistant(
				`Noted:
- Type 2 diabetes since [[number|2019]]; last HbA1c [[number|7.4%]] ([[number|January 2025]]), above the usual target of about [[number|7%]].
- [[name|Metformin]] [[number|500 mg]] twice daily; [[name|atorvastatin]] [[number|20 mg]] at night.
- Allergy: [[name|penicillin]] (rash and swelling, [[number|2011]]).
Any operations or hospital stays?`
			),
			user(
				`Appendix removed in [[number|2004]] at [[name|St Thomas' Hospital]]. Knee arthroscopy on the left knee in [[number|2016]]. My father had a heart attack at [[number|58]], my mother has [[name|hypothyroidism]]. [[instruction|Please don't put my employer or insurance details in the summary]], I'll bring those separately.`
			),
			call(
				'lookup_interactions',
				{ drugs: ['metformin', 'atorvastatin', 'ibuprofen'] },
				`metformin + atorvastatin: no clinically significant interaction
metformin + ibuprofen: caution in reduced kidney function; monitor [[name|eGFR]]
atorvastatin + ibuprofen: no clinically significant interaction`,
				`You mentioned earlier you sometimes take [[name|ibuprofen]] for the knee; let me check it against your medicines.`
			),
			assistant(
				`[[name|Ibuprofen]] has no significant interaction with [[name|atorvastatin]], but with [[name|metformin]] it calls for caution if kidney function is reduced, so it's worth asking [[name|Dr. Mehta]] to check your [[name|eGFR]]. For the visit I'd list three questions: whether to adjust the diabetes treatment given the HbA1c of [[number|7.4%]], cardiovascular screening given your father's heart attack at [[number|58]], and safe pain relief for the knee.`
			),
			user(
				`[[instruction|Yes, add those]]. [[instruction|Always list doses in mg]], the last clinic got confused by "one tablet". My [[name|NHS]] number is [[number|485 777 3456]] if you need it on the sheet.`
			),
			assistant(
				`I'll put the NHS number [[number|485 777 3456]] at the top, every dose in mg, and the three questions at the end. The summary leaves out your employer and insurance, as you asked.`
			)
		]
	},
	{
		id: 'running-injury-rehab',
		domain: 'physiotherapy',
		turns: [
			user(
				`I'm training for the [[name|Berlin Marathon]] on [[number|21 September]] and got diagnosed with [[name|Achilles tendinopathy]] on my right leg last week. My physio [[name|Lukas Brenner]] gave me eccentric heel drops, [[number|3 sets of 15]], twice a day. I currently run about [[number|45 km a week]].`
			),
			assistant(
				`That's the standard [[name|Alfredson protocol]]. Tendons usually tolerate some running if pain stays at or below about [[number|3 out of 10]] during and the next morning. Did [[name|Lukas]] give you a running limit?`
			),
			user(
				`He said [[instruction|no speed work and no hills for [[number|4 weeks]]]], and [[instruction|to keep weekly distance under [[number|30 km]] until the morning stiffness is gone]]. My goal time was [[number|3:30]] but I'd accept [[number|3:45]] now.`
			),
			assistant(
				`A plan for the next [[number|4 weeks]], within [[name|Lukas]]'s limits:
- Week 1–2: [[number|25–30 km]], all easy, flat, no run longer than [[number|12 km]].
- Week 3–4: up to [[number|30 km]] if the morning stiffness is gone, one run up to [[number|16 km]].
- Heel drops every day, [[number|3 × 15]], twice.
- Cross-training on the bike for aerobic volume: [[number|2 sessions of 45 minutes]].
With [[number|21 September]] about [[number|14 weeks]] away, [[number|3:45]] is realistic if the tendon settles by [[number|mid-July]].`
			),
			user(
				`[[instruction|Don't schedule anything on Tuesdays]], that's when I see [[name|Lukas]] at [[name|Physio am Kanal]]. I log runs on [[name|Strava]] as [[identifier|mara_runs_berlin]].`
			),
			assistant(
				`Tuesdays are free in the plan. I'll move the bike sessions to [[number|Monday and Thursday]], the long run to [[number|Sunday]]. If the pain goes above [[number|3 out of 10]] the next morning, skip the next run and tell [[name|Lukas]].`
			)
		]
	},
	{
		id: 'dog-ear-infection',
		domain: 'veterinary care',
		turns: [
			user(
				`My dog [[name|Biscuit]], a [[number|6-year-old]] [[name|cocker spaniel]], [[number|14 kg]], has a recurring ear infection. The vet, [[name|Dr. Sofia Lindgren]] at [[name|Kungsholmen Djurklinik]], prescribed [[name|Osurnia]] ear gel, one tube per ear, repeated after [[number|7 days]].`
			),
			assistant(
				`[[name|Osurnia]] is applied as one tube in the affected ear and repeated once after a week, so the dosing matches. It's meant to stay in the ear, so the usual advice is not to clean the ear for [[number|45 days]] after the first dose unless the vet says otherwise. Is this the third time?`
			),
			user(
				`Fourth time since [[number|June 2024]]. First dose was on [[number|May 2]], second on [[number|May 9]]. The follow-up check is on [[number|May 23 at 16:15]]. [[instruction|Never give him anything with [[name|xylitol]]]], he got sick from chewing gum once.`
			),
			assistant(
				`Noted: no xylitol. With four infections in under a year, it's worth asking [[name|Dr. Lindgren]] on [[number|May 23]] about an underlying cause: cocker spaniels often have allergic skin disease that shows up in the ears. She may suggest a [[number|8-week]] elimination diet with a hydrolysed food such as [[name|Hill's z/d]] or [[name|Royal Canin Anallergenic]].`
			),
			user(
				`He's on [[name|Acana]] lamb now. The clinic's email is [[email|info@kungsholmendjur.se]] and his patient number is [[number|KD-20931]]. [[instruction|Keep the food switch gradual, over at least [[number|7 days]]]], he has a sensitive stomach.`
			),
			assistant(
				`If [[name|Dr. Lindgren]] recommends the diet, switch from [[name|Acana]] lamb over [[number|7 to 10 days]]: a quarter new food for the first [[number|3 days]], then half, then three quarters. I'll draft a short note for the visit with the four episodes, the [[name|Osurnia]] dates ([[number|May 2]] and [[number|May 9]]) and patient number [[number|KD-20931]].`
			)
		]
	}
];
