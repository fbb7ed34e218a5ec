package lease

// WaitingFor is how many requests wait for the acquisition of table under
// way (0 when none is).
func (m *Manager) WaitingFor(table int64) int {
	m.mu.Lock()
	defer m.mu.Unlock()
	if a, ok := m.acquiring[table]; ok {
		return a.waiters
	}
	return 0
}
