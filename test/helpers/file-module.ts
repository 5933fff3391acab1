/**
 * @module An offline Terraform module for the issue 29 tests: one `terraform_data` writes
 * `var.content` to `var.path` when created and removes the file when destroyed (or fails its destroy
 * with `fail_destroy = "true"`). It reads the file at plan time, so a file changed by hand plans a
 * replacement of `terraform_data.file`: the drift a real provider's refresh would show. The planned
 * trigger is unknown while out of sync and the content's hash once applied, so a corrected file
 * plans no change again.
 */
export const FILE_MODULE = `
variable "services" {
  type = any
}
variable "path" {
  type = string
}
variable "content" {
  type    = string
  default = "v1"
}
variable "fail_destroy" {
  type    = string
  default = "false"
}
locals {
  in_sync = fileexists(var.path) ? file(var.path) == var.content : false
}
resource "terraform_data" "file" {
  input            = { path = var.path, content = var.content, fail = var.fail_destroy }
  triggers_replace = local.in_sync ? sha256(var.content) : (timestamp() == "" ? "" : sha256(var.content))
  provisioner "local-exec" {
    command     = "printf '%s' \\"$CONTENT\\" > \\"$FILE\\""
    environment = { CONTENT = self.input.content, FILE = self.input.path }
  }
  provisioner "local-exec" {
    when        = destroy
    command     = self.input.fail == "true" ? "echo 'cannot remove the file' >&2; exit 1" : "rm -f \\"$FILE\\""
    environment = { FILE = self.input.path }
  }
}
`;
