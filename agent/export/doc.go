// Package export writes tasks and trajectories in the formats other
// training and evaluation stacks read, one file per format behind one small
// interface (Format).
//
// Task formats (training data):
//
//	verl, search-r1  parquet: data_source, prompt (chat messages), ability,
//	                 reward_model {style, ground_truth {target, task_id, answer}},
//	                 extra_info {index, split, task_id, variant, need_tools_kwargs,
//	                 tools_kwargs, tools {base_url, retrieve_url, topk, ...}}
//	skyrl            parquet: data_source, prompt, env_class, reward_spec
//	                 {method, ground_truth}, extra_info
//	asearcher        JSONL: id, question, answer, aug_answer
//	widesearch       JSONL: instance_id, query, answer (markdown table),
//	                 evaluation {unique_columns, required, eval_pipeline}
//
// Directory format:
//
//	browsecomp-plus  queries.tsv, qrel_evidence.txt (TREC qrels: the pages that
//	                 hold each task's answer), ground_truth.jsonl (query_id,
//	                 query, answer), corpus.jsonl (docid, text, url: the
//	                 evidence pages and every page a run retrieved), and
//	                 runs/run_<query_id>.json, one run per trajectory
//
// Parquet is written with github.com/parquet-go/parquet-go; nested fields
// are parquet groups and lists are 3-level LIST columns, as pandas and
// Hugging Face datasets (pyarrow) write them, so the trainers' loaders read
// them unchanged.
//
// # Concurrency
//
// Formats hold no state; Write may run concurrently for different outputs.
//
// # Caveats
//
// Docids are page URLs, as leaper serve's /retrieve and the MCP
// get_document use them; BrowseComp-Plus's citation metrics, which look
// for numeric docids in the answer text, find none.
package export
