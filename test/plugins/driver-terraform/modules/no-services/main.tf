# Test module without the `services` variable every CTS module must declare.
output "hello" {
  value = "world"
}
