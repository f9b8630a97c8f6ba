#!/bin/sh
: set up
#PBS -N x
echo
