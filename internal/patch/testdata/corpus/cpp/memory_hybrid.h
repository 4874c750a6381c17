#pragma once

// Test input for the patch corpus: a C++ header laid out the way large
// C++ projects lay theirs out, with "//" banner comments and blank lines
// between groups of members.

#include <memory>
#include <vector>

struct memory_params {
    int n_ctx    = 0;
    int n_seq    = 1;
    bool offload = false;
};

//
// memory_hybrid
//

class memory_hybrid : public memory_i {
public:
    memory_hybrid(const model & m, const memory_params & params);

    ~memory_hybrid() = default;

    //
    // memory_i
    //

    context_ptr init_batch(batch_allocr & balloc, uint32_t n_ubatch, bool embd_all) override;

    context_ptr init_full() override;

    context_ptr init_update(context * lctx, bool optimize) override;

    bool get_can_shift() const override;

    void clear(bool data) override;

    bool seq_rm  (seq_id seq_id, pos p0, pos p1) override;
    void seq_cp  (seq_id seq_id_src, seq_id seq_id_dst, pos p0, pos p1) override;
    void seq_keep(seq_id seq_id) override;
    void seq_add (seq_id seq_id, pos p0, pos p1, pos shift) override;
    void seq_div (seq_id seq_id, pos p0, pos p1, int d) override;

    pos seq_pos_min(seq_id seq_id) const override;
    pos seq_pos_max(seq_id seq_id) const override;

    // state write/load

    void state_write(io_write_i & io, seq_id seq_id = -1, uint32_t flags = 0) const override;
    void state_read (io_read_i  & io, seq_id seq_id = -1, uint32_t flags = 0) override;

    //
    // memory_hybrid specific API
    //

    kv_cache * get_mem_attn() const;
    recurrent * get_mem_recr() const;

private:
    const hparams & hparams;

    const std::unique_ptr<kv_cache> mem_attn;
    const std::unique_ptr<recurrent> mem_recr;
};

class memory_hybrid_context : public memory_context_i {
public:
    using slot_info_vec_t = kv_cache::slot_info_vec_t;

    // init failure
    explicit memory_hybrid_context(memory_status status);

    // init full
    explicit memory_hybrid_context(memory_hybrid * mem);

    // init update
    explicit memory_hybrid_context(
        memory_hybrid * mem,
              context * lctx,
                 bool   optimize);

    ~memory_hybrid_context() = default;

    bool next()  override;
    bool apply() override;

    memory_status  get_status() const override;
    const ubatch & get_ubatch() const override;

    //
    // memory_hybrid_context
    //

    const kv_cache_context  * get_attn() const;
    const recurrent_context * get_recr() const;

private:
    // the index of the next ubatch to process
    size_t i_next = 0;

    std::vector<ubatch> ubatches;

    const memory_context_ptr ctx_attn;
    const memory_context_ptr ctx_recr;

    const memory_status status;
};
