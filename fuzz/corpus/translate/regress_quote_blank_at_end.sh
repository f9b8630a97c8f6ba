#!/bin/bash
#SBATCH -o "a'b	"
#SBATCH -e "c\"d' "
#SBATCH -J keep
echo body
