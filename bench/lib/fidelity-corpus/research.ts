// Research: a paper under revision, a data analysis in a notebook and a grant proposal, with
// the datasets, figures, venues and colleagues they name.
import { assistant, call, user, type LabelledConversation } from './labelled';

export const RESEARCH: LabelledConversation[] = [
	{
		id: 'paper-revision',
		domain: 'research paper',
		turns: [
			user(
				`Our paper "[[name|Sparse Attention for Long-Document Retrieval]]" got a major revision from [[name|TACL]]. [[number|Reviewer 2]] wants a comparison with [[name|ColBERTv2]] and an ablation of the window size. The draft is [[path|paper/main.tex]] and the results table is in [[path|paper/tables/retrieval.tex]].`
			),
			assistant(
				`A major revision at [[name|TACL]] usually gives you [[number|2 months]]. For reviewer 2: run [[name|ColBERTv2]] on the same benchmarks with its released checkpoint, and an ablation over window sizes, say [[number|128]], [[number|256]], [[number|512]] and [[number|1024 tokens]]. Which benchmarks does the table report?`
			),
			user(
				`[[name|MS MARCO]] dev and [[name|TREC DL 2019]]. Our model gets [[number|MRR@10 of 39.8]] on [[name|MS MARCO]] with a window of [[number|512]]. The code is at [[url|https://github.com/lena-ko/sparse-retrieval]]. [[instruction|Don't change any number already in the table without telling me]], my co-author [[name|Prof. Hiroshi Tanaka]] checked them all.`
			),
			call(
				'run_eval',
				{ model: 'colbertv2', dataset: 'msmarco-dev' },
				`ColBERTv2 ([[identifier|colbertv2.0]] checkpoint) on MS MARCO dev:
[[number|MRR@10 = 39.7]], [[number|Recall@1000 = 98.4]]
Runtime: [[number|41 min]] on [[number|1x]] [[name|A100]]`
			),
			assistant(
				`[[name|ColBERTv2]] with the [[identifier|colbertv2.0]] checkpoint gets [[number|MRR@10 = 39.7]] and [[number|Recall@1000 = 98.4]] on [[name|MS MARCO]] dev, in [[number|41 min]] on one [[name|A100]]. Your [[number|39.8]] is on par, so the argument should rest on efficiency: report index size and latency for both. I'll add a new row to [[path|paper/tables/retrieval.tex]] without touching the existing numbers.`
			),
			user(
				`Good. [[instruction|The response letter must be under [[number|4 pages]]]]. [[instruction|Always quote each reviewer comment before our answer]]. Deadline for resubmission is [[number|15 August 2025]].`
			),
			assistant(
				`I'll structure the letter with each comment quoted, then our answer and the change in the paper with its page and line. At under [[number|4 pages]], I'll answer the minor comments in one short list. I'll put it in [[path|paper/response-letter.tex]] so [[name|Prof. Tanaka]] can review it before [[number|15 August 2025]].`
			)
		]
	},
	{
		id: 'analysis-survey-data',
		domain: 'data analysis',
		turns: [
			user(
				`I have survey data in [[path|data/raw/wellbeing_2024.csv]], [[number|3,212 respondents]]. I want to know if remote work is associated with higher wellbeing scores, controlling for age, income and caring duties. I use [[name|Python]] with [[identifier|pandas]] and [[identifier|statsmodels]].`
			),
			call(
				'inspect_csv',
				{ path: 'data/raw/wellbeing_2024.csv' },
				`columns: [[identifier|resp_id]], [[identifier|age]], [[identifier|income_band]], [[identifier|remote_days]], [[identifier|carer]], [[identifier|wellbeing_score]], [[identifier|region]]
rows: [[number|3212]]
missing: income_band [[number|214]] ([[number|6.7%]]), wellbeing_score [[number|38]] ([[number|1.2%]])`
			),
			assistant(
				`The file has [[number|3,212 rows]]; [[identifier|income_band]] is missing for [[number|214]] ([[number|6.7%]]) and [[identifier|wellbeing_score]] for [[number|38]] ([[number|1.2%]]). I'd fit an [[name|OLS]] model of [[identifier|wellbeing_score]] on [[identifier|remote_days]], [[identifier|age]], [[identifier|income_band]] (as a category) and [[identifier|carer]], with robust standard errors, using [[identifier|smf.ols]]. Drop the [[number|38]] without an outcome; for [[identifier|income_band]], compare complete cases with multiple imputation.`
			),
			user(
				`[[instruction|Use [[identifier|remote_days]] as a number of days per week, [[number|0 to 5]]]]. [[instruction|Never drop respondents just because income is missing]], our funder objected last time. [[instruction|Results go in [[path|reports/remote_wellbeing.ipynb]]]].`
			),
			assistant(
				`Then multiple imputation for [[identifier|income_band]]: [[identifier|IterativeImputer]] from [[identifier|scikit-learn]], or [[identifier|statsmodels.imputation.mice]] with [[number|20 imputations]], pooled with [[name|Rubin]]'s rules. I'll keep all [[number|3,174]] respondents with an outcome and report the coefficient on [[identifier|remote_days]] per extra day at home.`
			),
			user(
				`Sounds right. My supervisor [[name|Dr. Claire Dubois]] wants a plot of the adjusted means by [[identifier|remote_days]]; [[instruction|use the university colours, navy #1F3A5F and gold #C9A227]].`
			),
			assistant(
				`I'll add the plot of adjusted means with [[number|95%]] confidence intervals for [[number|0 to 5 days]], in navy [[identifier|#1F3A5F]] and gold [[identifier|#C9A227]], as the last cell of [[path|reports/remote_wellbeing.ipynb]].`
			)
		]
	},
	{
		id: 'grant-proposal',
		domain: 'grant proposal',
		turns: [
			user(
				`I'm writing an [[name|ERC Starting Grant]] proposal on microplastics in alpine lakes. Host institution: [[name|University of Innsbruck]]. The call deadline is [[number|14 October 2025]] at [[number|17:00 Brussels time]]. Budget ceiling is [[number|€1.5 million]] over [[number|5 years]].`
			),
			assistant(
				`For an [[name|ERC Starting Grant]] the [[name|B1]] part has a [[number|5-page]] extended synopsis and a [[number|2-page]] CV, and the [[name|B2]] part a [[number|14-page]] scientific proposal. The panel for this topic would likely be [[identifier|PE10]] ([[name|Earth system science]]). What is your main hypothesis?`
			),
			user(
				`That microplastic deposition in high alpine lakes is driven mainly by atmospheric transport, not local sources. I'll sample [[number|12 lakes]] above [[number|2,000 m]] in [[name|Tyrol]]. [[instruction|The budget must include a full-time postdoc for all [[number|5 years]] and a [[name|Raman]] spectroscopy system, about [[number|€280,000]]]].`
			),
			assistant(
				`A rough budget within [[number|€1.5 million]]: you at [[number|50%]] for [[number|5 years]], one postdoc full-time for [[number|60 months]] (about [[number|€420,000]] at [[name|Innsbruck]] rates), one PhD student for [[number|4 years]] (about [[number|€190,000]]), the [[name|Raman]] system at [[number|€280,000]], fieldwork and helicopter access about [[number|€120,000]], and the [[number|25%]] flat rate for indirect costs on top of direct costs.`
			),
			user(
				`My mentor [[name|Prof. Katrin Oberhauser]] will read the draft, her email is [[email|k.oberhauser@uibk.ac.at]]. [[instruction|Don't use the word "novel" anywhere]], she hates it. The working title is "[[name|ATMOPLAST]]".`
			),
			assistant(
				`Noted: no "novel". I'll draft the [[name|B1]] synopsis for [[name|ATMOPLAST]] around the atmospheric transport hypothesis, the [[number|12 lakes]] above [[number|2,000 m]] in [[name|Tyrol]], and the budget lines above, and leave a margin before the [[number|14 October 2025]] deadline for [[name|Prof. Oberhauser]]'s comments.`
			)
		]
	}
];
