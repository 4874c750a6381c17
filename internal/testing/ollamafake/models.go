package ollamafake

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"net/http"
	"strings"
	"time"

	"github.com/ollama/ollama/api"
)

// Model is a model the fake server has "pulled".
type Model struct {
	// Name as users write it; a name without a tag gets ":latest", as with
	// the real server.
	Name string
	// Digest is the hex SHA-256 /api/tags reports; derived from Name if empty.
	Digest string
	// Family is details.family in /api/show and /api/tags; "qwen2" if empty.
	Family string
	// Arch is general.architecture in /api/show; the context length is
	// reported under "<Arch>.context_length". Family if empty.
	Arch string
	// ContextLength is the model's trained context window; 32768 if 0.
	ContextLength int
	// Tokenizer is tokenizer.ggml.pre in /api/show (the pre-tokenizer of
	// the model's vocabulary, e.g. "qwen2"); not reported if empty.
	Tokenizer string
}

// canonical is name with ":latest" added when it has no tag.
func canonical(name string) string {
	base := name[strings.LastIndex(name, "/")+1:]
	if !strings.Contains(base, ":") {
		return name + ":latest"
	}
	return name
}

// AddModel registers m (or replaces the model of the same name).
func (s *Server) AddModel(m Model) {
	m.Name = canonical(m.Name)
	if m.Family == "" {
		m.Family = "qwen2"
	}
	if m.Arch == "" {
		m.Arch = m.Family
	}
	if m.ContextLength == 0 {
		m.ContextLength = 32768
	}
	if m.Digest == "" {
		sum := sha256.Sum256([]byte(m.Name))
		m.Digest = hex.EncodeToString(sum[:])
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.models[m.Name]; !ok {
		s.order = append(s.order, m.Name)
	}
	s.models[m.Name] = &m
}

// RemoveModel unregisters a model, as `ollama rm` would.
func (s *Server) RemoveModel(name string) {
	name = canonical(name)
	s.mu.Lock()
	defer s.mu.Unlock()
	delete(s.models, name)
	for i, n := range s.order {
		if n == name {
			s.order = append(s.order[:i], s.order[i+1:]...)
			break
		}
	}
}

func (s *Server) model(name string) (Model, bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	m, ok := s.models[canonical(name)]
	if !ok {
		return Model{}, false
	}
	return *m, true
}

// notFound writes the real server's answer for an unknown model.
func notFound(w http.ResponseWriter, model string) {
	writeError(w, http.StatusNotFound, fmt.Sprintf("model '%s' not found", model))
}

func writeError(w http.ResponseWriter, status int, msg string) {
	writeJSON(w, status, map[string]string{"error": msg})
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json; charset=utf-8")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(v)
}

func (s *Server) handleShow(w http.ResponseWriter, r *http.Request) {
	var req api.ShowRequest
	if err := json.NewDecoder(r.Body).Decode(&req); err != nil {
		s.record(Request{Method: r.Method, Path: r.URL.Path})
		writeError(w, http.StatusBadRequest, err.Error())
		return
	}
	name := req.Model
	if name == "" {
		//lint:ignore SA1019 clients before Ollama's model field send name; the fake answers both as the server does
		name = req.Name
	}
	s.record(Request{Method: r.Method, Path: r.URL.Path, Model: name})
	m, ok := s.model(name)
	if !ok {
		notFound(w, name)
		return
	}
	// The real server reports no digest here (that is /api/tags), and
	// decodes numbers in model_info as float64 on the client side.
	info := map[string]any{
		"general.architecture":        m.Arch,
		"general.parameter_count":     14770033664,
		m.Arch + ".context_length":    m.ContextLength,
		m.Arch + ".embedding_length":  5120,
		m.Arch + ".block_count":       48,
		"tokenizer.ggml.model":        "gpt2",
		"tokenizer.ggml.eos_token_id": 151645,
	}
	if m.Tokenizer != "" {
		info["tokenizer.ggml.pre"] = m.Tokenizer
	}
	writeJSON(w, http.StatusOK, api.ShowResponse{
		Details:    m.details(),
		ModelInfo:  info,
		Template:   "{{ .Prompt }}",
		ModifiedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
	})
}

func (m Model) details() api.ModelDetails {
	return api.ModelDetails{
		Format:            "gguf",
		Family:            m.Family,
		Families:          []string{m.Family},
		ParameterSize:     "14.8B",
		QuantizationLevel: "Q4_K_M",
	}
}

func (s *Server) handleTags(w http.ResponseWriter, r *http.Request) {
	s.record(Request{Method: r.Method, Path: r.URL.Path})
	s.mu.Lock()
	resp := api.ListResponse{Models: []api.ListModelResponse{}}
	for _, n := range s.order {
		m := s.models[n]
		resp.Models = append(resp.Models, api.ListModelResponse{
			Name:       m.Name,
			Model:      m.Name,
			ModifiedAt: time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC),
			Size:       9_000_000_000,
			Digest:     m.Digest,
			Details:    m.details(),
		})
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}

func (s *Server) handleVersion(w http.ResponseWriter, r *http.Request) {
	s.record(Request{Method: r.Method, Path: r.URL.Path})
	s.mu.Lock()
	v := s.version
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, map[string]string{"version": v})
}

// handlePs answers /api/ps as a server whose models are all loaded: a
// request waiting on this fake is evaluating its prompt. It is a status
// poll (the client asks it while it waits), so it is not recorded.
func (s *Server) handlePs(w http.ResponseWriter, r *http.Request) {
	s.mu.Lock()
	resp := api.ProcessResponse{Models: []api.ProcessModelResponse{}}
	for _, n := range s.order {
		m := s.models[n]
		resp.Models = append(resp.Models, api.ProcessModelResponse{Name: m.Name, Model: m.Name, Digest: m.Digest, Details: m.details()})
	}
	s.mu.Unlock()
	writeJSON(w, http.StatusOK, resp)
}
