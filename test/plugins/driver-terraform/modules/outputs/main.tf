# Test module with outputs of every kind: a list, a map, a string with characters that need
# escaping in HCL and JSON, and a sensitive one whose value must never reach the daemon.
variable "services" {
  type = map(any)
}

resource "terraform_data" "each" {
  for_each = var.services
  input    = each.value.address
}

output "addresses" {
  value = sort([for r in terraform_data.each : r.output])
}

output "by_id" {
  value = { for id, r in terraform_data.each : id => r.output }
}

output "awkward" {
  value = "quote \" backslash \\ dollar $${x} percent %%{y} tab \t é ✓ <tag>"
}

output "password" {
  value     = "hunter2-${length(var.services)}"
  sensitive = true
}
